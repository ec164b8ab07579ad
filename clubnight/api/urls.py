"""URLs of the ratings, tournaments and public links API, mounted under /api/v1/."""

from django.urls import path

from clubnight.api import views

urlpatterns = [
    path("clubs/<int:pk>/ratings/", views.ClubRatingsView.as_view(), name="club-ratings"),
    path("players/<int:pk>/ratings/", views.PlayerRatingsView.as_view(), name="player-ratings"),
    path("tournaments/", views.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<int:pk>/rounds/", views.RoundListView.as_view(), name="tournament-rounds"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/",
        views.RoundDetailView.as_view(),
        name="tournament-round",
    ),
    path(
        "tournaments/<int:pk>/entrants/",
        views.EntrantListView.as_view(),
        name="tournament-entrants",
    ),
    path(
        "tournaments/<int:pk>/entrants/<int:player>/",
        views.EntrantDetailView.as_view(),
        name="tournament-entrant",
    ),
    path(
        "tournaments/<int:pk>/leaderboard/csv/",
        views.LeaderboardCSVView.as_view(),
        name="tournament-leaderboard-csv",
    ),
    path(
        "tournaments/<int:pk>/leaderboard/",
        views.LeaderboardView.as_view(),
        name="tournament-leaderboard",
    ),
    path("tournaments/<int:pk>/board/", views.BoardView.as_view(), name="tournament-board"),
    path(
        "clubs/<int:pk>/public-links/", views.PublicLinkListView.as_view(), name="public-link-list"
    ),
    path(
        "clubs/<int:pk>/public-links/<int:link_pk>/",
        views.PublicLinkDetailView.as_view(),
        name="public-link-detail",
    ),
]
