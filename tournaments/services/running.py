"""Running a tournament (rulebook, "Tournament Structure", "Scoring", "The Game Clock",
"Between Rounds", "Dropping From a Tournament", "The Tournaments Conclusion").

Each round pairs the active players (``tournaments.pairing``), records the byes at once and
opens a timed match for every pair. A match's end decides its pairing (``pairing_result_record``,
called when the match finishes, and again by the sweep in case that was missed), moves both
ratings by the tournament's K, and when the round's last pairing is decided the next round is
paired straight away, or the tournament concludes. Every writer locks the tournament row
first, then any match it ends, so two processes never interleave on one tournament.

A match still unfinished when the round's time is up is decided by this rule: the player who
has won more games of the match wins it; with as many games each, the player with more time
left on their game clock; with the same time, the better seed (the higher rating at the
start).
"""

from collections.abc import Mapping

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.models import Match, MatchStatus
from game.selectors import clock_left_ms
from game.services.event_matches import EventSeat, event_match_open, match_award
from tcgsite.accounts.models import User
from tcgsite.errors import UserError
from tcgsite.jobs import job_after_commit
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import lobby_panel_message
from tcgsite.lobbies.services.presence import lobby_group
from tcgsite.realtime import send_on_commit, user_group
from tournaments import elo, fragments, pairing, rewards, standings
from tournaments.models import (
    STYLE_CLOCK_MINUTES,
    Decision,
    Pairing,
    Participant,
    RatingChange,
    Tournament,
    TournamentStatus,
    TournamentStructure,
)
from tournaments.services import sealed
from tournaments.sprint_badges import names_refresh_after_commit

RATED_DECISIONS = (Decision.PLAYED, Decision.TIME, Decision.SIMULATED)


class TournamentError(UserError):
    pass


def round_begin(tournament: Tournament) -> None:
    """Pair and begin the next round (the caller holds the tournament's lock)."""
    tournament.round += 1
    in_bracket = _in_bracket(tournament, tournament.round)
    # A Cut to Top 8's bracket may play a style of its own, with its own clock and round time.
    style = tournament.round_style(in_bracket=in_bracket)
    tournament.round_ends = timezone.now() + tournament.round_length_at(style)
    field = tournament.participants.select_related("player")
    if tournament.simulated:
        field = field.defer("decklist")  # no match is opened: the decks are never read
    participants = {each.pk: each for each in field}
    if in_bracket:
        if (
            tournament.structure == TournamentStructure.CUT_TO_TOP_8
            and tournament.bracket_from_round is None
        ):
            order = [
                player for player in swiss_order(tournament) if participants[player].dropped is None
            ]
            tournament.bracket = list(pairing.top_cut_bracket(order))
            tournament.bracket_from_round = tournament.round
        planned = pairing.elimination_round(tournament.bracket)
        pairs, byes = planned.pairs, planned.byes
    else:
        entrants, results, byes_so_far = _swiss_history(tournament, participants)
        dropped = {pk for pk, each in participants.items() if each.dropped is not None}
        planned = pairing.next_swiss_round(
            entrants=entrants,
            results=results,
            byes=byes_so_far,
            dropped=dropped,
            seed=tournament.seed,
        )
        pairs, byes = planned.pairs, ([planned.bye] if planned.bye is not None else [])
    tournament.save(update_fields=["round", "round_ends", "bracket", "bracket_from_round"])
    table = 0
    for first, second in pairs:
        table += 1
        row = Pairing.objects.create(
            tournament=tournament,
            round=tournament.round,
            table=table,
            first_id=first,
            second_id=second,
        )
        a, b = participants[first], participants[second]
        if a.dropped or b.dropped:
            _decide(tournament, row, b if a.dropped else a, Decision.DROPPED)
            continue
        if tournament.simulated:
            continue
        row.match = event_match_open(
            title=f"Tournament {tournament.pk}, round {tournament.round}: "
            f"{a.player.username} vs {b.player.username}",
            seats=[_seat(tournament, a), _seat(tournament, b)],
            structure=style,
            time_limit=STYLE_CLOCK_MINUTES[style] * 60,
            computer_level=settings.TOURNAMENT_COMPUTER_LEVEL,
        )
        row.save(update_fields=["match"])
        for participant in (a, b):
            _call(tournament, participant.player, row.match_id)
    for bye in byes:
        table += 1
        row = Pairing.objects.create(
            tournament=tournament, round=tournament.round, table=table, first_id=bye
        )
        _decide(tournament, row, participants[bye], Decision.BYE)
        if not tournament.simulated:
            _tell(
                participants[bye].player,
                fragments.between_rounds_toast(
                    tournament, fragments.bye_text(in_bracket=in_bracket)
                ),
            )
    lobby_changed()
    _round_check(tournament)


def pairing_result_record(*, match_id: int) -> bool:
    """Decide the pairing of the tournament match ``match_id`` if it has ended; whether it
    was decided now. Safe to run twice."""
    pairing_id = Pairing.objects.filter(match_id=match_id).values_list("pk", flat=True).first()
    if pairing_id is None:
        return False
    with transaction.atomic():
        row = _locked_pairing(pairing_id)
        match = Match.objects.get(pk=match_id)
        if row.decided is not None or match.status not in (
            MatchStatus.FINISHED,
            MatchStatus.CANCELLED,
        ):
            return False
        tournament = row.tournament
        winner = _participant_of(row, match.winner_id) if match.winner_id else _at_time(row, match)
        _decide(tournament, row, winner, Decision.PLAYED if match.winner_id else Decision.STAFF)
        if not _round_check(tournament):
            _between_rounds(tournament, row)
    return True


def simulated_round_record(*, tournament_id: int, winners: Mapping[int, int]) -> int:
    """The computer's results of the round being played of a simulated tournament, all at
    once: ``winners`` maps each undecided pairing's id to its winner (one of its two
    participants). Each pairing is decided as a match would decide it, both ratings moved in
    table order; then the next round is paired, or the tournament concludes. The number of
    pairings decided."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.simulated:
            raise TournamentError("Only a simulated tournament's pairings are decided this way.")
        rows = list(
            Pairing.objects.filter(tournament=tournament, round=tournament.round, decided=None)
            .exclude(second=None)
            .order_by("table")
        )
        if {row.pk for row in rows} != set(winners):
            raise TournamentError("Give a winner for each undecided pairing of the round.")
        if any(winners[row.pk] not in (row.first_id, row.second_id) for row in rows):
            raise TournamentError("Each winner must be one of the pairing's two players.")
        now = timezone.now()
        for row in rows:
            row.winner_id, row.decision, row.decided = winners[row.pk], Decision.SIMULATED, now
        Pairing.objects.bulk_update(rows, ["winner", "decision", "decided"])
        players = dict(
            tournament.participants.filter(
                pk__in=[pk for row in rows for pk in (row.first_id, row.second_id)]
            ).values_list("pk", "player_id")
        )
        if _in_bracket(tournament, tournament.round):
            losers = [_loser_id(row) for row in rows]
            Participant.objects.filter(pk__in=losers).update(eliminated_round=tournament.round)
            names_refresh_after_commit([players[pk] for pk in losers])
        _ratings_move_all(
            tournament,
            [(row, players[row.winner_id], players[_loser_id(row)]) for row in rows],
        )
        _round_check(tournament)
    return len(rows)


def tournament_drop(*, player: User) -> Participant:
    """Drop from your tournament: an unfinished match of yours is lost, you are never paired
    again, and you keep whatever your final place earns."""
    participant = (
        Participant.objects.filter(player=player, dropped=None, tournament__status__in=_RUNNING)
        .order_by("-pk")
        .first()
    )
    if participant is None:
        raise TournamentError("You are not playing in a tournament.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=participant.tournament_id)
        participant = _participants().get(pk=participant.pk)
        if participant.dropped is not None or tournament.status not in _RUNNING:
            raise TournamentError("You are not playing in a tournament.")
        participant.dropped = timezone.now()
        participant.save(update_fields=["dropped"])
        names_refresh_after_commit([player.pk])
        row = (
            Pairing.objects.select_for_update()
            .filter(tournament=tournament, round=tournament.round, decided=None)
            .filter(_involving(participant))
            .first()
        )
        if row is not None and row.second_id is not None:
            opponent = row.second if row.first_id == participant.pk else row.first
            opponent = _participants().get(pk=opponent.pk)
            if row.match_id is not None:
                match_award(
                    match_id=row.match_id,
                    winner=opponent.player,
                    reason=f"{player.username} dropped from the tournament",
                )
            _decide(tournament, row, opponent, Decision.DROPPED)
        sealed.participant_dropped(participant)
        lobby_changed()
        if not _round_check(tournament) and row is not None and row.second_id is not None:
            _between_rounds(tournament, row)
    return participant


def rounds_due_sweep() -> int:
    """End the rounds whose time is up, deciding their unfinished matches by the rule of
    this module's docstring, and decide any pairing whose match ended unrecorded; how many
    pairings were decided. Safe to run twice, or in two processes at once."""
    decided = 0
    ended = Pairing.objects.filter(
        decided=None, match__status__in=(MatchStatus.FINISHED, MatchStatus.CANCELLED)
    ).values_list("match_id", flat=True)
    for match_id in ended:
        decided += pairing_result_record(match_id=match_id)
    due = Tournament.objects.filter(status=TournamentStatus.PLAYING, round_ends__lte=timezone.now())
    for tournament_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            if (
                tournament.status != TournamentStatus.PLAYING
                or tournament.round_ends > timezone.now()
            ):
                continue
            open_rows = Pairing.objects.select_related(
                "first__player", "second__player", "match"
            ).filter(tournament=tournament, round=tournament.round, decided=None)
            for row in open_rows:
                winner = _at_time(row, row.match)
                if row.match_id is not None:
                    match_award(
                        match_id=row.match_id,
                        winner=winner.player,
                        reason="the round's time ran out",
                    )
                _decide(tournament, row, winner, Decision.TIME)
                decided += 1
            _round_check(tournament)
    return decided


def swiss_order(tournament: Tournament) -> list[int]:
    """The participants' ids in the order of the Swiss standings so far (its Swiss rounds
    only, for a Cut to Top 8)."""
    participants = {each.pk: each for each in tournament.participants.all()}
    entrants, results, byes = _swiss_history(tournament, participants)
    return [line.player for line in standings.swiss_standings(entrants, results, byes)]


def lobby_changed() -> None:
    """After the commit, the Tournaments Lobby's lists follow."""
    send_on_commit(
        group=lobby_group(Lobby.TOURNAMENTS),
        message_type="lobby.panel",
        payload=lobby_panel_message(fragments.lobby_lists()),
    )


_RUNNING = (TournamentStatus.DECK_BUILDING, TournamentStatus.PLAYING)


def _round_check(tournament: Tournament) -> bool:
    """If the round being played is over, pair the next one or conclude; whether it did."""
    if tournament.status != TournamentStatus.PLAYING:
        return False
    this_round = Pairing.objects.filter(tournament=tournament, round=tournament.round)
    if this_round.filter(decided=None).exists():
        return False
    rows = list(this_round)
    if _in_bracket(tournament, tournament.round):
        tournament.bracket = list(
            pairing.advance(tournament.bracket, {row.winner_id for row in rows})
        )
        tournament.save(update_fields=["bracket"])
        if sum(place is not None for place in tournament.bracket) <= 1:
            _conclude(tournament)
            return True
    else:
        active = tournament.participants.filter(dropped=None).count()
        more_swiss = tournament.round < tournament.swiss_rounds and active >= 2
        cut = tournament.structure == TournamentStructure.CUT_TO_TOP_8 and active >= 2
        if not (more_swiss or cut):
            _conclude(tournament)
            return True
    round_begin(tournament)
    return True


def _conclude(tournament: Tournament) -> None:
    participants = list(tournament.participants.defer("decklist").select_related("player"))
    order = _final_order(tournament, participants)
    structure = (
        rewards.parse_reward_structure(tournament.reward_structure)
        if tournament.reward_structure
        else None
    )
    packs = rewards.rewards(structure, order) if structure and tournament.pack_pool_id else {}
    by_pk = {each.pk: each for each in participants}
    for rank, pk in enumerate(order, start=1):
        participant = by_pk[pk]
        participant.final_rank = rank
        participant.packs = packs.get(pk, 0)
    Participant.objects.bulk_update(participants, ["final_rank", "packs"])
    tournament.status = TournamentStatus.CONCLUDED
    tournament.concluded = timezone.now()
    tournament.round_ends = None
    tournament.save(update_fields=["status", "concluded", "round_ends"])
    for participant in participants:
        _tell(
            participant.player,
            fragments.conclusion_toast(tournament, participant, len(participants)),
        )
    names_refresh_after_commit([participant.player_id for participant in participants])
    lobby_changed()
    job_after_commit("tournaments.payout", tournament_id=tournament.pk)


def _final_order(tournament: Tournament, participants: list[Participant]) -> list[int]:
    by_seed = [each.pk for each in sorted(participants, key=lambda each: each.seed)]
    if tournament.structure == TournamentStructure.SWISS:
        return swiss_order(tournament)
    bracket_results = [
        standings.Result(round=row.round, winner=row.winner_id, loser=_loser_id(row))
        for row in Pairing.objects.filter(
            tournament=tournament, round__gte=tournament.bracket_from_round or 1
        ).exclude(second=None)
    ]
    if tournament.structure == TournamentStructure.SINGLE_ELIMINATION:
        return standings.elimination_placings(by_seed, bracket_results)
    swiss = swiss_order(tournament)
    cut = [
        pk
        for pk in swiss
        if pk in {r.winner for r in bracket_results} | {r.loser for r in bracket_results}
    ]
    if not cut:
        return swiss
    top = [pk for pk in swiss if pk in set(cut)]
    return standings.cut_standings(swiss, standings.elimination_placings(top, bracket_results))


def _decide(tournament: Tournament, row: Pairing, winner: Participant, decision: str) -> None:
    row.winner = winner
    row.decision = decision
    row.decided = timezone.now()
    row.save(update_fields=["winner", "decision", "decided"])
    if row.second_id is None:
        return
    loser = _participants().get(pk=_loser_id(row))
    if _in_bracket(tournament, row.round):
        Participant.objects.filter(pk=loser.pk).update(eliminated_round=row.round)
        names_refresh_after_commit([loser.player_id])
    if decision in RATED_DECISIONS:
        _ratings_move(tournament, row, winner, loser)


def _ratings_move(
    tournament: Tournament, row: Pairing, winner: Participant, loser: Participant
) -> None:
    _ratings_move_all(tournament, [(row, winner.player_id, loser.player_id)])


def _ratings_move_all(tournament: Tournament, results: list[tuple[Pairing, int, int]]) -> None:
    """Elo with the tournament's K (rulebook, "K") after each match, in the order given
    (pairing, winner's and loser's user ids), into the rating history."""
    players = {
        user.pk: user
        for user in User.objects.select_for_update()
        .filter(pk__in={pk for _, won, lost in results for pk in (won, lost)})
        .order_by("pk")
        .only("pk", "rating")
    }
    changes = []
    for row, won, lost in results:
        winner, loser = players[won], players[lost]
        after_won, after_lost = elo.ratings_after_match(winner.rating, loser.rating, tournament.k)
        changes += [
            RatingChange(player=winner, pairing=row, before=winner.rating, after=after_won),
            RatingChange(player=loser, pairing=row, before=loser.rating, after=after_lost),
        ]
        winner.rating, loser.rating = after_won, after_lost
    RatingChange.objects.bulk_create(changes)
    User.objects.bulk_update(players.values(), ["rating"])


def _swiss_history(tournament: Tournament, participants: dict[int, Participant]):
    entrants = [
        standings.Entrant(player=pk, rating=each.rating_start) for pk, each in participants.items()
    ]
    rows = Pairing.objects.filter(tournament=tournament).exclude(decided=None)
    if tournament.bracket_from_round is not None:
        rows = rows.filter(round__lt=tournament.bracket_from_round)
    results, byes = [], []
    for row in rows:
        if row.second_id is None:
            byes.append(standings.Bye(round=row.round, player=row.first_id))
        else:
            loser = row.second_id if row.winner_id == row.first_id else row.first_id
            results.append(standings.Result(round=row.round, winner=row.winner_id, loser=loser))
    return entrants, results, byes


def _in_bracket(tournament: Tournament, round_number: int) -> bool:
    if tournament.structure == TournamentStructure.SINGLE_ELIMINATION:
        return True
    return (
        tournament.structure == TournamentStructure.CUT_TO_TOP_8
        and round_number > tournament.swiss_rounds
    )


def _at_time(row: Pairing, match: Match | None) -> Participant:
    """The winner of an unfinished match by the rule of this module's docstring."""
    first = _participants().get(pk=row.first_id)
    second = _participants().get(pk=row.second_id)
    if match is None:
        return first if first.seed < second.seed else second
    seats = {seat.player_id: seat for seat in match.seats.all()}
    wins = list(match.games.exclude(winner_seat=None).values_list("winner_seat", flat=True))
    now = timezone.now()

    def key(participant: Participant):
        seat = seats[participant.player_id]
        return (wins.count(seat.seat), clock_left_ms(match, seat, now) or 0, -participant.seed)

    return max((first, second), key=key)


def _participants():
    """Participants with their players, without the decklists a result never reads."""
    return Participant.objects.defer("decklist").select_related("player")


def _loser_id(row: Pairing) -> int:
    return row.second_id if row.winner_id == row.first_id else row.first_id


def _participant_of(row: Pairing, player_id: int) -> Participant:
    first = _participants().get(pk=row.first_id)
    if first.player_id == player_id:
        return first
    return _participants().get(pk=row.second_id)


def _locked_pairing(pairing_id: int) -> Pairing:
    tournament_id = Pairing.objects.values_list("tournament_id", flat=True).get(pk=pairing_id)
    Tournament.objects.select_for_update().get(pk=tournament_id)
    return Pairing.objects.select_related("tournament").get(pk=pairing_id)


def _involving(participant: Participant):
    from django.db.models import Q

    return Q(first=participant) | Q(second=participant)


def _seat(tournament: Tournament, participant: Participant) -> EventSeat:
    decklist, deck_name = participant.decklist, participant.deck_name
    if decklist is None:
        decklist, deck_name = sealed.round_decklist(participant)
    return EventSeat(
        player=participant.player,
        decklist=decklist,
        deck_name=deck_name,
        computer=hasattr(participant.player, "computer_opponent"),
    )


def _between_rounds(tournament: Tournament, row: Pairing) -> None:
    """The two players of a pairing just decided in a round still being played (rulebook,
    "Between Rounds"): the winner, and the loser of a Swiss, go back to the Tournaments Lobby,
    where the Tournament Timer runs, to be called to the next round's match from there; the
    loser of an elimination bracket is out, and free."""
    in_bracket = _in_bracket(tournament, row.round)
    for participant in _participants().filter(pk__in=[row.first_id, row.second_id]):
        if participant.dropped is not None:
            continue
        won = participant.pk == row.winner_id
        if in_bracket and not won:
            _tell(participant.player, fragments.knocked_out_toast(tournament, row.round))
            continue
        result = fragments.result_text(won=won, decision=row.decision)
        _tell(participant.player, fragments.between_rounds_toast(tournament, result))


def _call(tournament: Tournament, player: User, match_id: int) -> None:
    """Call the player to their match (rulebook, "Between Rounds": "each participant will be
    pulled back to the Tournaments Lobby"): a page elsewhere goes to the lobby first, and the
    lobby's page to the match (static/js/tournaments.js)."""
    send_on_commit(
        group=user_group(player.pk),
        message_type="lobby.toast",
        payload={"sender_id": None, "html": fragments.round_call_toast(tournament, match_id)},
    )


def _tell(player: User, html: str) -> None:
    send_on_commit(
        group=user_group(player.pk),
        message_type="lobby.toast",
        payload={"sender_id": None, "html": html},
    )
