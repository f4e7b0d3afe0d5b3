"""The party pages: the host screen, the join page and a player's page, from ``templates/party_*.html.j2``.

Jinja2 with autoescaping on and undefined names an error, as the host page;
the state goes to each page's script as JSON in a ``<script
type="application/json">`` block; every style and script is inline in the page
(with a per-response nonce the Content-Security-Policy names), so the server
sends no file of its own or anyone else's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2

PAGES = {"host": "party_host.html.j2", "join": "party_join.html.j2", "play": "party_play.html.j2"}


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    import jinja2

    from printkit.resources import data_dir

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


@lru_cache(maxsize=8)
def qr_svg(url: str) -> str:
    """The join link as an inline SVG QR code (segno), black on white, scalable."""
    import segno

    svg: str = segno.make(url, error="m").svg_inline(scale=8, border=2, dark="#000", light="#fff", omitsize=True)
    return svg


def render_page(page: str, nonce: str, state: dict[str, Any], join_url: str) -> str:
    """One page's HTML for the current state."""
    from markupsafe import Markup

    template = _environment().get_template(PAGES[page])
    return template.render(nonce=nonce, state=state, join_url=join_url, qr=Markup(qr_svg(join_url)),
                           title=f"{state['map']['name']}: party")
