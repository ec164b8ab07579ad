"""``manage.py runserver`` (``make run``'s server) with room for a club night's phones.

Django's development server keeps 10 connections waiting to be accepted; a club night's phones
opening more at the same moment (every table recording after the same hand) had the rest reset.
This one keeps as many waiting as the system allows (``socket.SOMAXCONN``); it is otherwise
Django's, static files included.
"""

from __future__ import annotations

import socket

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.core.servers.basehttp import WSGIServer


class RoomyWSGIServer(WSGIServer):
    """Django's development server with a listen backlog of ``socket.SOMAXCONN``."""

    request_queue_size = socket.SOMAXCONN


class Command(StaticRunserver):
    server_cls = RoomyWSGIServer
