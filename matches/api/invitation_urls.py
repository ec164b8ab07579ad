"""Routes of invitations, mounted under /api/v1/."""

from django.urls import path, register_converter

from matches.api import invitations as views


class CodeConverter:
    """An invitation code: URL-safe base64 (``secrets.token_urlsafe``). Anything else never
    reaches the database (a NUL byte would be a 500 there); it is a plain 404."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(CodeConverter, "code")

urlpatterns = [
    path(
        "clubs/<int:pk>/invitations/", views.ClubInvitationsView.as_view(), name="club-invitations"
    ),
    path(
        "clubs/<int:pk>/invitations/<int:invitation>/",
        views.ClubInvitationView.as_view(),
        name="club-invitation",
    ),
    path("invitations/", views.MyInvitationsView.as_view(), name="my-invitations"),
    path("invitations/<code:code>/", views.InvitationView.as_view(), name="invitation"),
    path(
        "invitations/<code:code>/accept/",
        views.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<code:code>/signup/",
        views.InvitationSignupView.as_view(),
        name="invitation-signup",
    ),
]
