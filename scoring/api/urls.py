"""Routes of the stateless rulings under /api/v1/rulings/."""

from django.urls import path

from scoring.api import views

urlpatterns = [
    path("rulings/meld/", views.MeldRulingView.as_view(), name="ruling-meld"),
    path("rulings/hand/", views.HandRulingView.as_view(), name="ruling-hand"),
    path("rulings/discard/", views.DiscardRulingView.as_view(), name="ruling-discard"),
    path("rulings/take-discards/", views.TakeDiscardsRulingView.as_view(),
         name="ruling-take-discards"),  # fmt: skip
    path("rulings/extend/", views.ExtendRulingView.as_view(), name="ruling-extend"),
]
