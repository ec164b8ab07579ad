"""ASGI entry point, behind the request body limit."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arlington_site.settings")

django_application = get_asgi_application()

from arlington_site.limits import BodySizeLimit  # noqa: E402  (needs the settings set up)

application = BodySizeLimit(django_application)
