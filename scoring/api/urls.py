"""Routes of the stateless rulings under /api/v1/rulings/ and the games under /api/v1/rulesets/."""

from django.urls import path

from scoring.api import rulesets, rulings, rummy, views

urlpatterns = [
    path("rulesets/", rulesets.RulesetListView.as_view(), name="ruleset-list"),
    path("rulesets/<str:name>/", rulesets.RulesetDetailView.as_view(), name="ruleset-detail"),
    path("rulings/meld/", views.MeldRulingView.as_view(), name="ruling-meld"),
    path("rulings/hand/", views.HandRulingView.as_view(), name="ruling-hand"),
    path("rulings/discard/", views.DiscardRulingView.as_view(), name="ruling-discard"),
    path(
        "rulings/take-discards/",
        views.TakeDiscardsRulingView.as_view(),
        name="ruling-take-discards",
    ),
    path("rulings/extend/", views.ExtendRulingView.as_view(), name="ruling-extend"),
    path("rulings/rummy/meld/", rummy.RummyMeldRulingView.as_view(), name="ruling-rummy-meld"),
    path("rulings/rummy/hand/", rummy.RummyHandRulingView.as_view(), name="ruling-rummy-hand"),
    path(
        "rulings/rummy/lay-off/", rummy.RummyLayOffRulingView.as_view(), name="ruling-rummy-lay-off"
    ),
    path(
        "rulings/rummy/discard/",
        rummy.RummyDiscardRulingView.as_view(),
        name="ruling-rummy-discard",
    ),
    *(
        path(f"rulings/<str:ruleset>/{name}/", view.as_view(), name=f"ruling-any-{name}")
        for name, view in rulings.ROUTES.items()
    ),
]
