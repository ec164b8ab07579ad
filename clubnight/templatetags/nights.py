"""Template filters of the public pages."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils import formats

register = template.Library()


@register.filter
def vp(value: Any) -> str:
    """Victory points as the board and the room display show them: at most two decimals and
    no trailing zeros (``0.5``, ``0.33``, ``1``), in the page's language (``0,5`` in French).

    >>> vp("0.5000"), vp("0.3333"), vp(1), vp("2.50")
    ('0.5', '0.33', '1', '2.5')
    """
    number = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    places = max(0, -int(number.normalize().as_tuple().exponent))
    return str(floatformat(number, places))


@register.filter
def points(value: Any) -> str:
    """Points as the app shows them: grouped by thousands in the page's language (``1,525``,
    ``1 525`` in French), negative ones with their sign.

    >>> points(1525), points(-1145), points(0)
    ('1,525', '-1,145', '0')
    """
    return str(formats.number_format(value, force_grouping=True))
