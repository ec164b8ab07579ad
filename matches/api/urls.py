"""URLs of the matches API, mounted under /api/v1/."""

from django.urls import path

from matches.api.views import ObtainTokenView

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="auth-token"),
]
