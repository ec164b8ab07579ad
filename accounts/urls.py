"""Routes of device tokens, under /api/v1/auth/."""

from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/tokens/", api.TokensView.as_view(), name="auth-tokens"),
    path("auth/tokens/<int:pk>/", api.TokenDetailView.as_view(), name="auth-token-detail"),
    path("auth/logout/", api.LogoutView.as_view(), name="auth-logout"),
]
