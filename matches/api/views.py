"""API views of the matches app."""

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.serializers import CharField, Serializer


class TokenSerializer(Serializer):
    """The token issued for a username and password."""

    token = CharField(read_only=True)


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token."""

    authentication_classes = []
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="auth_token_create",
        request=AuthTokenSerializer,
        responses={200: TokenSerializer},
        tags=["auth"],
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)
