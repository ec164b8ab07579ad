"""URL configuration: admin, OpenAPI schema and docs, the v1 API and the scorekeeper's app."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from arlington_site.health import healthz

api_v1 = [
    path("", include("scoring.api.urls")),
    path("", include("matches.api.urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/v1/", include(api_v1)),
    path("", include("web.urls")),
]

handler404 = "arlington_site.views.not_found"
handler500 = "arlington_site.views.server_error"
