"""WSGI entry point, e.g. ``gunicorn arlington_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arlington_site.settings")

application = get_wsgi_application()
