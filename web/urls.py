"""URLs of the scorekeeper's app, mounted at the site's root."""

from django.contrib.auth import views as auth_views
from django.urls import path, re_path
from django.views.i18n import set_language

from accounts.sign_in_forms import LimitedLoginView
from web import clubnight_views, entry_views, views
from web.labels import vocabulary

app_name = "web"

urlpatterns = [
    path("", views.clubs, name="clubs"),
    path(
        "sign-in/",
        LimitedLoginView.as_view(  # within the sign-in limits, like the token endpoints
            refusal_in_form=True,
            template_name="web/sign_in.html",
            redirect_authenticated_user=True,
            extra_context={"vocabulary": vocabulary},
        ),
        name="sign-in",
    ),
    path("sign-out/", auth_views.LogoutView.as_view(), name="sign-out"),
    path("language/", set_language, name="set-language"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("matches/<int:match_id>/hands/new/", entry_views.hand_new, name="hand-new"),
    path(
        "matches/<int:match_id>/hands/<int:number>/edit/", entry_views.hand_edit, name="hand-edit"
    ),
    path("sw.js", entry_views.service_worker, name="service-worker"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/matches/new/", views.match_new, name="match-new"),
    path("clubs/<int:club_id>/standings/", views.standings, name="standings"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("clubs/<int:club_id>/tournaments/", clubnight_views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", clubnight_views.board, name="board"),
    path("tournaments/<int:tournament_id>/room/", clubnight_views.room, name="room"),
    path("tournaments/<int:tournament_id>/print/", clubnight_views.night_print, name="night-print"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/scoreboard/", views.scoreboard, name="scoreboard"),
    # The API's invitation links point here (`url` of an invitation: /join/<code>).
    re_path(r"^join/(?P<code>[A-Za-z0-9_-]{1,64})/?$", views.join, name="join"),
]
