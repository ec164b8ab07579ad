"""What the resource views share: conditional updates (ETag, If-Match under a row lock),
Location on creation, and the club-scoped viewset of rosters and seasons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.generics import GenericAPIView, get_object_or_404  # 404 for clubs/abc/
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.serializers import BaseSerializer

from accounts.idempotency import idempotent
from matches import errors, selectors
from matches.api import http
from matches.api.filters import StrictOrderingFilter
from matches.api.permissions import ClubRole, require_role


def conditional_updates(
    serializer: type[BaseSerializer], read: type[BaseSerializer] | None = None
) -> Any:
    """The schema of a resource whose reads answer an ETag and whose PUT and PATCH take
    If-Match; ``read`` is the answer of a read when it says more than a change's."""
    change = extend_schema(
        parameters=[http.IF_MATCH_UPDATE, http.ETAG_OBJECT],
        responses={200: serializer, 412: http.STALE},
    )
    reading = extend_schema(
        parameters=[http.IF_NONE_MATCH_OBJECT, http.ETAG_OBJECT],
        responses={200: read or serializer, 304: OpenApiResponse(description="Not modified.")},
    )
    return extend_schema_view(retrieve=reading, update=change, partial_update=change)


class ConditionalUpdateMixin(GenericAPIView if TYPE_CHECKING else object):  # type: ignore[misc]
    """A read answers an ETag; a change applies to the row as it is, and honours If-Match.

    ``PUT`` and ``PATCH`` read the row again under a lock (``SELECT ... FOR UPDATE``) inside
    their transaction, validate against it and save it: two changes at once are applied one
    after the other, so neither undoes the other and a rule across fields (a season's dates)
    is checked against what the other change wrote. A client that must not overwrite a change
    to the same field sends the ETag it read in If-Match (412 ``precondition_failed`` if the
    object has changed since). The ETag has two parts (``http.object_etag``): a digest of the
    fields the API changes (``etag_fields``), which If-Match reads, so that only a change to
    them is a conflict; then a digest of the whole answer, which If-None-Match reads too, so
    that a read answers 304 only while nothing in it changed (a player's record, your role).
    """

    etag_fields: tuple[str, ...] = ("name",)
    read_serializer_class: type[BaseSerializer] | None = None
    """What a read answers, when it says more than the answer to a change (a player's record)."""

    def fields_tag(self, instance: Any) -> str:
        return http.digest_etag([instance.pk, *(getattr(instance, n) for n in self.etag_fields)])

    def read_body(self, instance: Any) -> Any:
        read = self.read_serializer_class or self.get_serializer_class()
        return read(instance, context=self.get_serializer_context()).data

    def etag_of(self, instance: Any) -> str:
        """The ETag a read of ``instance`` answers (a stale change's 412 names it)."""
        return http.object_etag(self.fields_tag(instance), self.read_body(instance))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        instance = self.get_object()
        body = self.read_body(instance)
        tag = http.object_etag(self.fields_tag(instance), body)
        if http.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        return Response(body, headers={"ETag": tag})

    def get_locked_object(self) -> Any:
        """The object in the URL, as ``get_object`` finds it, read with a row lock on it.

        ``FOR NO KEY UPDATE``: a change never moves a key, and a row written elsewhere that
        refers to this one (a hand's result to its player, a seat of a new match) checks its
        reference at commit with ``FOR KEY SHARE``, which this lock lets through. Under
        ``FOR UPDATE`` that check waited for the change while the change waited for a row the
        writer held (the club's), and one of the two failed as a deadlock.
        """
        no_key = connection.features.has_select_for_no_key_update
        queryset = self.filter_queryset(self.get_queryset()).select_for_update(
            of=("self",), no_key=no_key
        )
        lookup = self.lookup_url_kwarg or self.lookup_field
        instance = get_object_or_404(queryset, **{self.lookup_field: self.kwargs[lookup]})
        self.check_object_permissions(self.request, instance)
        return instance

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        partial = kwargs.pop("partial", False)
        http.if_match_tags(request)  # a malformed If-Match is refused before any work
        with transaction.atomic():
            locked = self.get_locked_object()
            if not http.names_fields(request, self.fields_tag(locked)):
                raise errors.PreconditionFailed("object", etag=self.etag_of(locked))
            serializer = self.get_serializer(locked, data=request.data, partial=partial)
            serializer.is_valid(raise_exception=True)
            self.perform_update(serializer)
        body = serializer.data  # its tag digests this answer: no second read of the record
        tag = http.object_etag(self.fields_tag(serializer.instance), body)
        return Response(body, headers={"ETag": tag})


class LocatedCreateMixin(
    mixins.CreateModelMixin,
    viewsets.GenericViewSet if TYPE_CHECKING else object,  # type: ignore[misc]
):
    """A creation answers the new object's absolute URL in Location, and honours
    Idempotency-Key (accounts/idempotency.py)."""

    @extend_schema(parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED])
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response: Response = super().create(request, *args, **kwargs)
        return response

    def get_success_headers(self, data: Any) -> dict[str, str]:
        return {"Location": location(self.request, f"{self.basename}-detail", pk=data["id"])}


def location(request: Request, name: str, **kwargs: Any) -> str:
    """The absolute URL of the route ``name``, as the client reached the API."""
    return request.build_absolute_uri(reverse(name, kwargs=kwargs))


class ClubScopedViewSet(
    ConditionalUpdateMixin,
    LocatedCreateMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """A club's roster or seasons: members read; ``write_roles`` create and edit."""

    permission_classes = [IsAuthenticated, ClubRole]
    filter_backends = [DjangoFilterBackend, StrictOrderingFilter]
    write_roles: frozenset[str]

    def get_serializer_context(self) -> dict[str, Any]:
        context: dict[str, Any] = super().get_serializer_context()
        context["member_clubs"] = selectors.clubs_visible_to(self.request.user)
        return context

    def perform_save(self, serializer: BaseSerializer, field: str) -> None:
        try:
            with transaction.atomic():  # a savepoint: a refused insert breaks no outer transaction
                serializer.save()
        except IntegrityError:
            raise exceptions.ValidationError(
                {field: _("This name is already taken in this club.")}, code="unique"
            ) from None

    def perform_create(self, serializer: BaseSerializer) -> None:
        require_role(self.request, serializer.validated_data["club"].pk, self.write_roles)
        self.perform_save(serializer, "name")

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            response: Response = super().update(request, *args, **kwargs)
        except IntegrityError:  # the change's transaction is rolled back whole
            raise exceptions.ValidationError(
                {"name": _("This name is already taken in this club.")}, code="unique"
            ) from None
        return response
