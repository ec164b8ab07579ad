"""The draft of a match's next hand: several phones fill in its parts, one phone records it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches import drafts, selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.permissions import SCOREKEEPING, requester
from matches.api.serializers import drafts as s
from matches.api.views.hands import MatchHandsMixin
from matches.models import HandDraftPart, Role

NOT_NEXT = ["match_finished", "hand_number_not_next"]
READ_CONFLICT = error_response("DraftReadConflict", NOT_NEXT)
DISCARD_CONFLICT = error_response("DraftDiscardConflict", [*NOT_NEXT, "live_hand_in_progress"])
WRITE_CONFLICT = error_response(
    "DraftWriteConflict",
    ["draft_changed", *NOT_NEXT, "live_hand_in_progress", "game_not_installed"],
    extra={
        "draft": s.HandDraftSerializer(
            required=False, help_text="`draft_changed`: the draft as it now stands."
        ),
    },
)

Incoming = s.HandDraftEndingRequestSerializer | s.HandDraftPlayerRequestSerializer


def etag(draft: drafts.Draft) -> str:
    """A digest of every part as it stands and of the draft's revision, so that a draft
    emptied by a discard does not read as unchanged to a phone that last read it empty."""
    return http.digest_etag([draft.to_json(), draft.revision])


def answer(draft: drafts.Draft) -> Response:
    """The draft with its ETag."""
    return Response(draft.to_json(), headers={"ETag": etag(draft), "Cache-Control": "no-cache"})


class DraftMixin(MatchHandsMixin):
    """Finds the match in the URL among the requester's clubs (404), checks the role (403)."""

    # for the schema (the path's player): the parts themselves come from the service
    queryset = HandDraftPart.objects.none()  # type: ignore[assignment]
    serializer_class = s.HandDraftSerializer
    schema = http.HeaderSchema()

    def access(self, match_pk: int) -> selectors.MatchAccess:
        """The requester's access to the match, once admitted: 404 or 403 before the body is
        read."""
        found = selectors.match_access(self.request.user, match_pk)
        self.admit(found)
        assert found is not None  # admitted
        return found

    def get_object(self) -> int:
        """The match in the URL, once the role allows the request (DRF's OPTIONS asks)."""
        return self.get_match_id()

    def save(
        self,
        match_id: int,
        number: int,
        player_id: int | None,
        incoming: Incoming,
    ) -> Response:
        """Write one part from the body as read, and answer the whole draft: any part for
        scorekeepers and owners, a viewer's own player's part alone (the role read again under
        the match's lock)."""
        incoming.is_valid(raise_exception=True)
        return answer(
            drafts.draft_part_save(
                match_id=match_id,
                number=number,
                player_id=player_id,
                data=incoming.to_data(),
                expected_version=incoming.validated_data["version"],
                user=requester(self.request),
                device=http.device(self.request),
                part_roles=SCOREKEEPING,
            )
        )


class HandDraftView(DraftMixin):
    """The draft of the match's next hand, as the phones have written it so far."""

    @extend_schema(
        responses={
            200: s.HandDraftSerializer,
            304: OpenApiResponse(description="Not modified."),
            409: READ_CONFLICT,
        },
        parameters=[http.IF_NONE_MATCH_DRAFT, http.ETAG_DRAFT],
    )
    def get(self, request: Request, match_pk: int, number: int) -> Response:
        draft = drafts.draft_of(match_id=self.get_match_id(), number=number)
        tag = etag(draft)
        if http.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        return answer(draft)

    @extend_schema(
        responses={
            204: OpenApiResponse(
                description="The draft is thrown away: its ending and every player's part. "
                "Phones reading it see it empty, every part at version 0."
            ),
            409: DISCARD_CONFLICT,
        },
    )
    def delete(self, request: Request, match_pk: int, number: int) -> Response:
        drafts.draft_discard(
            match_id=self.get_match_id(),
            number=number,
            user=requester(request),
            device=http.device(request),
            roles=self.write_roles,  # read again under the match's lock
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class HandDraftEndingView(DraftMixin):
    """The draft's ending part: how the hand ended, who went out, the game's flags."""

    serializer_class = s.HandDraftEndingRequestSerializer  # type: ignore[assignment]

    @extend_schema(
        request=s.HandDraftEndingRequestSerializer,
        responses={200: s.HandDraftSerializer, 409: WRITE_CONFLICT},
        examples=[
            OpenApiExample(
                "A player went out; who, not entered yet",
                value={"ending": "went_out", "went_out": None, "flags": {}, "version": 0},
                request_only=True,
            )
        ],
        parameters=[http.ETAG_DRAFT],
    )
    def put(self, request: Request, match_pk: int, number: int) -> Response:
        match_id = self.get_match_id()  # 404 or 403 before the body is read
        incoming = s.HandDraftEndingRequestSerializer(data=request.data)
        return self.save(match_id, number, None, incoming)


class HandDraftPlayerView(DraftMixin):
    """A seated player's part of the draft: their melds and the cards left in their hand.

    Scorekeepers and owners write any player's part; any member, a viewer too, writes the part
    of the player whose login they are (the service checks it under the match's lock).
    """

    serializer_class = s.HandDraftPlayerRequestSerializer  # type: ignore[assignment]
    write_roles = frozenset(Role.values)

    @extend_schema(
        request=s.HandDraftPlayerRequestSerializer,
        responses={200: s.HandDraftSerializer, 409: WRITE_CONFLICT},
        examples=[
            OpenApiExample(
                "A meld and a card left in hand, first entered",
                value={"melds": [["JS", "2D=QS", "KS"]], "hand": ["4H"], "version": 0},
                request_only=True,
            )
        ],
        parameters=[http.ETAG_DRAFT],
    )
    def put(self, request: Request, match_pk: int, number: int, player: int) -> Response:
        access = self.access(match_pk)
        incoming = s.HandDraftPlayerRequestSerializer(data=request.data)
        return self.save(access.match_id, number, player, incoming)


class HandDraftContestView(DraftMixin):
    """Another version of a seated player's cards, offered beside their part for a choice.

    A phone whose cards for the player differ from the part (each holding a card the other has
    not) sends its version here instead of over the part, so that every phone at the table
    shows both and the choice can be made on any of them: writing the part (either version, or
    a third) settles it, and so does ``DELETE`` (the part as written is kept, and its version
    moves on, so that a write racing the choice is refused). Who may: as for the part itself.
    """

    serializer_class = s.HandDraftPlayerRequestSerializer  # type: ignore[assignment]
    write_roles = frozenset(Role.values)

    @extend_schema(
        request=s.HandDraftPlayerRequestSerializer,
        responses={200: s.HandDraftSerializer, 409: WRITE_CONFLICT},
        parameters=[http.ETAG_DRAFT],
    )
    def put(self, request: Request, match_pk: int, number: int, player: int) -> Response:
        access = self.access(match_pk)
        incoming = s.HandDraftPlayerRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        return answer(
            drafts.draft_part_contest(
                match_id=access.match_id,
                number=number,
                player_id=player,
                data=incoming.to_data(),
                expected_version=incoming.validated_data["version"],
                user=requester(request),
                device=http.device(request),
                part_roles=SCOREKEEPING,
            )
        )

    @extend_schema(
        request=None,
        responses={200: s.HandDraftSerializer, 409: WRITE_CONFLICT},
        parameters=[s.HandDraftContestDropQuerySerializer, http.ETAG_DRAFT],
    )
    def delete(self, request: Request, match_pk: int, number: int, player: int) -> Response:
        access = self.access(match_pk)
        query = s.HandDraftContestDropQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return answer(
            drafts.draft_contest_drop(
                match_id=access.match_id,
                number=number,
                player_id=player,
                user=requester(request),
                device=http.device(request),
                expected_version=query.validated_data.get("version"),
                part_roles=SCOREKEEPING,
            )
        )
