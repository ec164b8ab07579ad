"""The public results pages, mounted at /r/: one per link, opened without signing in."""

from django.urls import re_path

from clubnight import public

urlpatterns = [
    re_path(r"^(?P<token>[A-Za-z0-9_-]{1,64})/$", public.page, name="public-results"),
]
