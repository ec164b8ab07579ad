"""URLs of the matches API, mounted under /api/v1/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from matches.api import live, live_stream, stream_tickets
from matches.api.views import auth, clubs, drafts, hands, matches, players, seasons, standings

router = SimpleRouter()
router.register("clubs", clubs.ClubViewSet, basename="club")
router.register("players", players.PlayerViewSet, basename="player")
router.register("seasons", seasons.SeasonViewSet, basename="season")
router.register("matches", matches.MatchViewSet, basename="match")

urlpatterns = [
    path("auth/token/", auth.ObtainTokenView.as_view(), name="auth-token"),
    path("matches/<int:match_pk>/hands/", hands.HandListView.as_view(), name="hand-list"),
    path(
        "matches/<int:match_pk>/hands/<int:number>/",
        hands.HandDetailView.as_view(),
        name="hand-detail",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/confirmations/",
        hands.HandConfirmationsView.as_view(),
        name="hand-confirmations",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/revisions/",
        hands.HandRevisionsView.as_view(),
        name="hand-revisions",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/draft/",
        drafts.HandDraftView.as_view(),
        name="hand-draft",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/draft/ending/",
        drafts.HandDraftEndingView.as_view(),
        name="hand-draft-ending",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/draft/players/<int:player>/",
        drafts.HandDraftPlayerView.as_view(),
        name="hand-draft-player",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/draft/players/<int:player>/contest/",
        drafts.HandDraftContestView.as_view(),
        name="hand-draft-contest",
    ),
    path("matches/<int:match_pk>/live/", live.LiveView.as_view(), name="live"),
    path("matches/<int:match_pk>/live/events/", live.LiveEventsView.as_view(), name="live-events"),
    path(
        "matches/<int:match_pk>/live/events/last/",
        live.LiveLastEventView.as_view(),
        name="live-last-event",
    ),
    path("matches/<int:match_pk>/live/stream/", live_stream.live_stream, name="live-stream"),
    path(
        "matches/<int:match_pk>/live/stream-ticket/",
        stream_tickets.StreamTicketView.as_view(),
        name="live-stream-ticket",
    ),
    path(
        "matches/<int:match_pk>/hands/<int:number>/live/",
        live.LiveLogView.as_view(),
        name="hand-live-log",
    ),
    path("clubs/<int:pk>/standings/", standings.ClubStandingsView.as_view(), name="club-standings"),
    path(
        "seasons/<int:pk>/standings/",
        standings.SeasonStandingsView.as_view(),
        name="season-standings",
    ),
    path(
        "clubs/<int:pk>/standings/csv/",
        standings.ClubStandingsCSVView.as_view(),
        name="club-standings-csv",
    ),
    path(
        "seasons/<int:pk>/standings/csv/",
        standings.SeasonStandingsCSVView.as_view(),
        name="season-standings-csv",
    ),
    *router.urls,
]
