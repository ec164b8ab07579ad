"""The public results pages, mounted at /r/: one per link, opened without signing in, and the
page that explains the rating they show."""

from django.urls import path, re_path

from clubnight import public

urlpatterns = [
    path("rating/", public.rating, name="public-rating"),  # a link's token is 32 characters
    re_path(r"^(?P<token>[A-Za-z0-9_-]{1,64})/$", public.page, name="public-results"),
]
