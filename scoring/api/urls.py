"""Routes of the stateless rulings under /api/v1/rulings/ and the games under /api/v1/rulesets/."""

from django.urls import path

from scoring.api import rulesets, rulings, views

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
    *(
        path(f"rulings/{route}/", view.as_view(), name=f"ruling-{route.replace('/', '-')}")
        for route, view in rulings.game_routes().items()
    ),
    *(
        path(f"rulings/<str:ruleset>/{name}/", view.as_view(), name=f"ruling-any-{name}")
        for name, view in rulings.ROUTES.items()
    ),
]
