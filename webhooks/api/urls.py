"""URLs of the event feed and the webhooks API, mounted under /api/v1/."""

from django.urls import path

from webhooks.api import views

HOOK = "clubs/<int:pk>/webhooks/<int:webhook_pk>/"

urlpatterns = [
    path("clubs/<int:pk>/events/", views.EventFeedView.as_view(), name="club-events"),
    path("clubs/<int:pk>/webhooks/", views.EndpointListView.as_view(), name="webhook-list"),
    path(HOOK, views.EndpointDetailView.as_view(), name="webhook-detail"),
    path(f"{HOOK}rotate-secret/", views.SecretRotateView.as_view(), name="webhook-rotate"),
    path(f"{HOOK}test/", views.TestSendView.as_view(), name="webhook-test"),
    path(f"{HOOK}deliveries/", views.DeliveryListView.as_view(), name="webhook-deliveries"),
    path(
        f"{HOOK}deliveries/<int:delivery_pk>/redeliver/",
        views.RedeliverView.as_view(),
        name="webhook-redeliver",
    ),
]
