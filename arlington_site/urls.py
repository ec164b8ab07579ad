"""URL configuration: admin, OpenAPI schema and docs, the v1 API and the scorekeeper's app."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from accounts.sign_in_forms import LimitedLoginView
from arlington_site import admin_login
from arlington_site.api_docs import SchemaView, SwaggerView
from arlington_site.api_root import ApiRootView
from arlington_site.health import healthz

api_v1 = [
    path("", include("scoring.api.urls")),
    path("", include("matches.api.urls")),
    path("", include("accounts.urls")),
    path("", include("matches.api.invitation_urls")),
    path("", include("clubnight.api.urls")),
    path("", include("webhooks.api.urls")),
]

# The browsable API's session login (what rest_framework.urls gives), within the sign-in limits.
browsable_api_sign_in = (
    [
        path(
            "login/",
            LimitedLoginView.as_view(template_name="rest_framework/login.html"),
            name="login",
        ),
        path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    ],
    "rest_framework",
)

admin_pages = [
    path("admin/login/", admin_login.login),  # the admin's own, with sign-in limits
    path("admin/", admin.site.urls),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    *(admin_pages if settings.ADMIN_ENABLED else []),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    # Redoc took 3 to 8 s here to draw the document and asked its makers' site for a logo;
    # Swagger UI draws it in 1.5 s. Old links to the Redoc page land there.
    path("api/redoc/", RedirectView.as_view(pattern_name="swagger-ui", permanent=True)),
    path("api/auth/", include(browsable_api_sign_in)),
    path("api/v1/", ApiRootView.as_view(), name="api-root"),
    path("api/v1/", include(api_v1)),
    path("r/", include("clubnight.urls")),  # public results: /r/<token>/
    path("", include("web.urls")),
]

handler400 = "arlington_site.views.bad_request"
handler404 = "arlington_site.views.not_found"
handler500 = "arlington_site.views.server_error"
