"""Routes of invitations, mounted under /api/v1/."""

from django.urls import path

from matches.api import invitations as views

urlpatterns = [
    path("clubs/<int:pk>/invitations/", views.ClubInvitationsView.as_view(),
         name="club-invitations"),
    path("clubs/<int:pk>/invitations/<int:invitation>/", views.ClubInvitationView.as_view(),
         name="club-invitation"),
    path("invitations/", views.MyInvitationsView.as_view(), name="my-invitations"),
    path("invitations/<str:code>/", views.InvitationView.as_view(), name="invitation"),
    path("invitations/<str:code>/accept/", views.InvitationAcceptView.as_view(),
         name="invitation-accept"),
    path("invitations/<str:code>/signup/", views.InvitationSignupView.as_view(),
         name="invitation-signup"),
]  # fmt: skip
