"""Players registering themselves (league.services.signup): the cap and its
waiting list in order, promotion on withdrawal, moderation, the signed links
and their expiry, every field's bound, duplicates, and erasing the e-mails.
Mails go to Django's test outbox; the links are read from it."""

from __future__ import annotations

import datetime
import re
import time

import pytest
from django.core import mail, signing
from django.utils import timezone

from league.models import EventAudit, Registration, Series, SignUp
from league.services import ServiceError, event
from league.services import signup as desk
from tests.factories import make_series

pytestmark = pytest.mark.django_db
Status = SignUp.Status


@pytest.fixture
def series() -> Series:
    s = make_series("ari-ari", slug="open", name="Open", kind="tournament")
    event.configure_event(series=s, rounds=2)
    desk.configure_signup(series=s, is_open=True, closes_at=None, cap=2, moderated=False)
    return s


def person(i: int, **fields: str) -> dict[str, str]:
    return {"first_name": f"First{i}", "last_name": f"Last{i}", "email": f"p{i}@example.org",
            "ema_number": f"1099000{i}", "country": "NL", **fields}


def token_in_last_mail(to: str) -> str:
    body = next(m.body for m in reversed(mail.outbox) if m.to == [to])
    return re.search(r"/register/link/([^/\s]+)/", body).group(1)


def signed_and_confirmed(series: Series, i: int, **fields: str) -> SignUp:
    s = desk.sign_up(series=series, **person(i, **fields))
    return desk.confirm_signup(token=token_in_last_mail(s.email))


def test_signup_mails_a_link_that_confirms_into_a_registration(series: Series) -> None:
    s = desk.sign_up(series=series, **person(1), site="https://tenbou.example")
    assert s.status == Status.UNCONFIRMED and not series.registrations.exists()
    (sent,) = mail.outbox
    assert sent.to == ["p1@example.org"] and "Open: confirm your registration" == sent.subject
    assert "https://tenbou.example/register/link/" in sent.body
    s = desk.confirm_signup(token=token_in_last_mail("p1@example.org"))
    reg = Registration.objects.get(series=series)
    assert (s.status, s.registration, reg.name, reg.ema_number, reg.country) == (
        Status.REGISTERED, reg, "First1 Last1", "10990001", "NL")
    # confirming twice changes nothing
    assert desk.confirm_signup(token=token_in_last_mail("p1@example.org")).registration == reg
    assert series.registrations.count() == 1


def test_the_mail_is_in_the_registrants_language(series: Series) -> None:
    desk.sign_up(series=series, **person(1), language="ja")
    assert mail.outbox[0].subject == "Open：申し込みの確認" and "Hello" not in mail.outbox[0].body


def test_past_the_cap_the_waiting_list_moves_up_in_order_on_withdrawal(series: Series) -> None:
    one, two = signed_and_confirmed(series, 1), signed_and_confirmed(series, 2)
    three, four = signed_and_confirmed(series, 3), signed_and_confirmed(series, 4)
    assert [s.status for s in (one, two, three, four)] == [Status.REGISTERED] * 2 + [Status.WAITING] * 2
    assert "waiting list" in mail.outbox[-1].subject
    desk.withdraw_signup(token=token_in_last_mail("p2@example.org"))
    assert list(series.registrations.values_list("first_name", flat=True)) == ["First1", "First3"]
    three.refresh_from_db()
    four.refresh_from_db()
    assert (three.status, four.status) == (Status.REGISTERED, Status.WAITING)
    assert mail.outbox[-1].to == ["p3@example.org"] and "you are registered" in mail.outbox[-1].subject
    # a waiting player withdrawing frees no place
    desk.withdraw_signup(token=token_in_last_mail("p4@example.org"))
    assert series.registrations.count() == 2
    steps = list(EventAudit.objects.filter(series=series, action="sign_up").order_by("pk")
                 .values_list("detail__step", flat=True))
    assert steps == ["desk", "signed_up", "confirmed", "signed_up", "confirmed", "signed_up", "confirmed",
                     "signed_up", "confirmed", "withdrawn", "promoted", "withdrawn"]
    assert not any("@" in a.describe() for a in series.event_audit.all())


def test_raising_the_cap_registers_the_waiting_list(series: Series) -> None:
    for i in range(1, 5):
        signed_and_confirmed(series, i)
    desk.configure_signup(series=series, is_open=True, closes_at=None, cap=3, moderated=False)
    assert series.registrations.count() == 3
    assert list(series.signups.values_list("status", flat=True)) == ["registered"] * 3 + ["waiting"]


def test_a_seated_registration_withdrawing_is_dropped_not_deleted(series: Series) -> None:
    desk.configure_signup(series=series, is_open=True, closes_at=None, cap=None, moderated=False)
    signups = [signed_and_confirmed(series, i) for i in range(1, 5)]
    event.seat_rounds(series=series)
    desk.withdraw_signup(signup=signups[0])
    reg = Registration.objects.get(first_name="First1")
    assert reg.is_dropped


def test_moderation_holds_confirmed_signups_for_the_director(series: Series) -> None:
    desk.configure_signup(series=series, is_open=True, closes_at=None, cap=1, moderated=True)
    a, b, c = (signed_and_confirmed(series, i) for i in (1, 2, 3))
    assert {a.status, b.status, c.status} == {Status.PENDING} and not series.registrations.exists()
    desk.decide_signup(signup=b, approve=True)
    desk.decide_signup(signup=a, approve=True)
    desk.decide_signup(signup=c, approve=False)
    a.refresh_from_db()
    b.refresh_from_db()
    c.refresh_from_db()
    assert (a.status, b.status, c.status) == (Status.WAITING, Status.REGISTERED, Status.REFUSED)
    assert "not accepted" in mail.outbox[-1].subject
    with pytest.raises(ServiceError) as err:
        desk.decide_signup(signup=c, approve=True)
    assert err.value.code == "not_pending"


class TwoHoursAgo(signing.TimestampSigner):
    def timestamp(self) -> str:
        return signing.b62_encode(int(time.time()) - 7200)


def test_a_confirmation_link_expires_but_withdrawal_still_works(series: Series, settings) -> None:  # noqa: ANN001
    settings.SIGNUP_LINK_HOURS = 1
    s = desk.sign_up(series=series, **person(1))
    old = TwoHoursAgo(salt=desk.LINK_SALT).sign_object([s.pk, s.nonce], compress=True)
    with pytest.raises(ServiceError) as err:
        desk.confirm_signup(token=old)
    assert err.value.code == "link_expired"
    assert desk.withdraw_signup(token=old).status == Status.WITHDRAWN


def test_an_expired_unconfirmed_signup_does_not_block_signing_up_again(series: Series) -> None:
    then = timezone.now() - datetime.timedelta(hours=100)
    desk.sign_up(series=series, **person(1), now=then)
    with pytest.raises(ServiceError):
        desk.sign_up(series=series, **person(1), now=then + datetime.timedelta(hours=1))
    assert desk.sign_up(series=series, **person(1)).status == Status.UNCONFIRMED


@pytest.mark.parametrize(("field", "value", "code"), [
    ("first_name", "Ai\x00ko", "invalid_text"),
    ("last_name", "x" * 10_000, "invalid_text"),
    ("last_name", "=HYPERLINK(\"http://evil\")", "invalid_text"),
    ("club", "+1 club", "invalid_text"),
    ("team", "@team", "invalid_text"),
    ("first_name", "Ai\nko", "invalid_text"),
    ("first_name", "   ", "required"),
    ("country", "XX", "invalid_country"),
    ("country", "N\x00", "invalid_text"),
    ("ema_number", "12ab", "invalid_ema_number"),
    ("ema_number", "1" * 21, "invalid_ema_number"),
    ("email", "not-an-address", "invalid_email"),
    ("email", "a@b.org\x00", "invalid_text"),
])
def test_every_field_is_held_to_its_bound(series: Series, field: str, value: str, code: str) -> None:
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, **person(1, **{field: value}))
    assert (err.value.code, err.value.field) == (code, field)
    assert not SignUp.objects.exists() and not mail.outbox


@pytest.mark.parametrize(("changes", "code", "field"), [
    ({"email": "P1@Example.org"}, "duplicate_email", "email"),
    ({"ema_number": "10990001", "first_name": "Other", "email": "o@example.org"}, "duplicate_ema_number",
     "ema_number"),
    ({"ema_number": "", "email": "o@example.org"}, "already_registered", "last_name"),
])
def test_duplicates_are_refused_with_a_clear_message(series: Series, changes: dict[str, str], code: str,
                                                     field: str) -> None:
    signed_and_confirmed(series, 1)
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, **{**person(1), **changes})
    assert (err.value.code, err.value.field) == (code, field)


def test_a_player_the_director_registered_cannot_sign_up_again(series: Series) -> None:
    event.register_player(series=series, first_name="Aiko", last_name="Sato", ema_number="10990077")
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, first_name="aiko", last_name="SATO", email="a@example.org")
    assert err.value.code == "already_registered"
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, first_name="A", last_name="S", email="a@example.org", ema_number="10990077")
    assert err.value.code == "duplicate_ema_number"


def test_a_closed_or_past_closing_form_takes_no_signup(series: Series) -> None:
    now = timezone.now()
    desk.configure_signup(series=series, is_open=True, closes_at=now, cap=None, moderated=False)
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, **person(1), now=now)
    assert err.value.code == "signup_closed"
    desk.configure_signup(series=series, is_open=False, closes_at=None, cap=None, moderated=False)
    with pytest.raises(ServiceError):
        desk.sign_up(series=series, **person(1))


def test_erasing_personal_data_kills_the_links_and_keeps_the_names(series: Series) -> None:
    s = signed_and_confirmed(series, 1)
    token = desk.link_token(s)
    with pytest.raises(ServiceError) as err:
        desk.erase_personal_data(series=series)
    assert err.value.code == "signup_open"
    desk.configure_signup(series=series, is_open=False, closes_at=None, cap=2, moderated=False)
    assert desk.erase_personal_data(series=series) == 1
    s.refresh_from_db()
    assert (s.email, s.nonce, s.name, s.status) == ("", "", "First1 Last1", Status.REGISTERED)
    with pytest.raises(ServiceError) as err:
        desk.withdraw_signup(token=token)
    assert err.value.code == "bad_link"


def test_tampered_or_foreign_links_are_refused(series: Series) -> None:
    s = desk.sign_up(series=series, **person(1))
    for bad in ("nonsense", signing.dumps([s.pk, s.nonce], salt="another.salt"), signing.dumps(["x", 1],
                                                                                                 salt=desk.LINK_SALT)):
        with pytest.raises(ServiceError) as err:
            desk.confirm_signup(token=bad)
        assert err.value.code == "bad_link"


def test_an_ema_number_of_another_player_is_refused_at_the_door(series: Series) -> None:
    event.register_player(series=make_series(slug="last-year"), first_name="Aiko", last_name="Sato",
                          ema_number="10990077")
    with pytest.raises(ServiceError) as err:
        desk.sign_up(series=series, **person(1, ema_number="10990077"))
    assert (err.value.code, err.value.field) == ("ema_number_of_another", "ema_number")
    # Issue 38: another EMA number under a known name is another person of that name, not a refusal.
    assert desk.sign_up(series=series, **person(1, first_name="Aiko", last_name="Sato",
                                                ema_number="10990078")).status == Status.UNCONFIRMED
    assert desk.sign_up(series=series, **person(2, first_name="Aiko", last_name="Sato",
                                                ema_number="10990077")).status == Status.UNCONFIRMED


def test_one_who_cannot_move_up_is_passed_over_and_logged(series: Series) -> None:
    one, _two, three, four = (signed_and_confirmed(series, i) for i in (1, 2, 3, 4))
    # Since three signed up, the director registered someone else under three's EMA number elsewhere.
    event.register_player(series=make_series(slug="elsewhere"), first_name="Other", last_name="Person",
                          ema_number=three.ema_number)
    desk.withdraw_signup(signup=one)
    three.refresh_from_db()
    four.refresh_from_db()
    assert (three.status, four.status) == (Status.WAITING, Status.REGISTERED)
    assert series.event_audit.filter(detail__step="not_promoted").count() == 1
