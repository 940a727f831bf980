"""``truco envido``, ``truco manilha``, ``truco compare`` and their JSON builders (issue 3, "CLI")."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from scorer.cli.cards_cli import compare_json, envido_json, manilha_json
from scorer.cli.main import cli
from scorer.core.errors import CardError


@pytest.fixture
def runner():
    return CliRunner()


def run_json(runner, args):
    result = runner.invoke(cli, [*args, "--json"])
    return result, json.loads(result.stdout)


# --- envido -----------------------------------------------------------------------------------

def test_envido_issue_example(runner):
    # Issue: `truco envido 7o 6o 5c`; docs/rules.md §Envido count: 7 oro, 6 oro, 5 copa -> 33.
    result, data = run_json(runner, ["envido", "7o", "6o", "5c"])
    assert result.exit_code == 0
    assert data["points"] == 33
    assert data["flor"] is False
    assert data["flor_points"] is None
    assert data["cards"] == ["7o", "6o"]
    assert data["hand"] == ["7o", "6o", "5c"]
    assert data["explanation"] == "7 + 6 de ouros + 20 = 33"
    assert data["names"]["5c"] == "5 de copas"
    assert data == envido_json("7o 6o 5c")


def test_envido_text_output(runner):
    result = runner.invoke(cli, ["envido", "7o", "6o", "5c", "--lang", "es"])
    assert result.exit_code == 0
    assert result.output == "Envido: 33 (7 + 6 de oros + 20 = 33)\n"


def test_envido_flor(runner):
    # docs/rules.md §Flor count: 7, 6, 5 de espada con flor -> flor 38; a Flor in play sings the
    # Flor, not Envido (docs/rules.md §Flor cancels Envido; issue 13 item 1): no Envido count.
    result, data = run_json(runner, ["envido", "7 de espada", "6e", "5e", "--flor", "--lang", "es"])
    assert result.exit_code == 0
    assert (data["points"], data["flor"], data["flor_points"]) == (None, True, 38)
    assert data["flor_cards"] == ["7e", "6e", "5e"]
    assert data["names"]["7e"] == "7 de espada"


def test_envido_muestra(runner):
    # docs/rules.md §Envido count with a muestra: muestra 1 espada; 5 espada, 4 copa, 3 espada -> 32.
    result, data = run_json(runner, ["envido", "5e", "4c", "3e", "--muestra", "1e"])
    assert result.exit_code == 0
    assert data["points"] == 32
    assert data["muestra"] == "1e"
    assert data["piezas"] == ["5e"]
    assert data["cards"] == ["5e", "4c"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["7o", "6o"], "card_count"),
        (["7o", "6o", "5c", "4c"], "card_count"),
        (["7o", "8o", "5c"], "no_eight_nine"),
        (["7o", "7o", "5c"], "duplicate_card"),
        (["7o", "banana", "5c"], "bad_card"),
        (["zap", "6o", "5c"], "manilha_needs_vira"),
        (["7o", "6o", "1e", "--muestra", "1e"], "duplicate_card"),
    ],
)
def test_envido_bad_input_exits_2_with_the_error(runner, args, code):
    result, data = run_json(runner, ["envido", *args])
    assert result.exit_code == 2
    assert data["error"]["code"] == code
    # Issue 13 item 7: messages follow the locale (pt without one); here an English one.
    text = runner.invoke(cli, ["envido", *args], env={"LC_ALL": "en_US.UTF-8"})
    assert text.exit_code == 2
    assert text.stderr.startswith("Error: ")


def test_envido_bad_token_is_named_with_accepted_forms(runner):
    result = runner.invoke(cli, ["envido", "7o", "banana", "5c"])
    assert result.exit_code == 2
    assert "banana" in result.stderr
    assert "7 de ouros" in result.stderr


# --- manilha ----------------------------------------------------------------------------------

def test_manilha_issue_example(runner):
    # Issue: `truco manilha 7`; docs/rules.md §Vira and manilhas: vira 7 -> the Qs; zap paus > copas > espadilha > pica-fumo.
    result, data = run_json(runner, ["manilha", "7"])
    assert result.exit_code == 0
    assert data["manilhas"] == ["10b", "10c", "10e", "10o"]
    assert data["manilha_names"] == ["zap", "copas", "espadilha", "pica-fumo"]
    assert data["order"][:5] == [["10b"], ["10c"], ["10e"], ["10o"], ["3e", "3b", "3c", "3o"]]
    assert data["order"][-1] == ["4e", "4b", "4c", "4o"]
    assert sum(len(level) for level in data["order"]) == 40
    assert data["vira_rank"] == 7 and data["vira"] is None
    assert data["names"]["10b"] == "Q de paus"
    assert data == manilha_json("7")


@pytest.mark.parametrize(
    ("args", "manilhas"),
    [
        (["3"], ["4b", "4c", "4e", "4o"]),  # docs/rules.md §Vira and manilhas, vira 3
        (["K"], ["1b", "1c", "1e", "1o"]),  # docs/rules.md §Vira and manilhas, vira K
        (["A"], ["2b", "2c", "2e", "2o"]),
        (["2 de copas"], ["3b", "3c", "3e", "3o"]),
        (["J"], ["12b", "12c", "12e", "12o"]),
        (["3", "--deck", "limpo"], ["10b", "10c", "10e", "10o"]),  # docs/rules.md §Vira and manilhas, baralho limpo
        (["--variant", "mineiro"], ["4b", "7c", "1e", "7o"]),  # docs/rules.md §Fixed manilhas
    ],
)
def test_manilha_table(runner, args, manilhas):
    result, data = run_json(runner, ["manilha", *args])
    assert result.exit_code == 0
    assert data["manilhas"] == manilhas


def test_manilha_limpo_order_has_24_cards(runner):
    _, data = run_json(runner, ["manilha", "3", "--deck", "limpo"])
    assert sum(len(level) for level in data["order"]) == 24


def test_manilha_text_output(runner):
    result = runner.invoke(cli, ["manilha", "3"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        "Manilhas: zap = 4 de paus, copas = 4 de copas, espadilha = 4 de espadas, "
        "pica-fumo = 4 de ouros"
    )


@pytest.mark.parametrize(
    ("args", "code"),
    [([], "vira_required"), (["8"], "no_eight_nine"), (["7", "--deck", "limpo"], "not_in_deck"),
     (["7", "--variant", "mineiro"], "vira_not_used"), (["xyz"], "bad_card")],
)
def test_manilha_errors(runner, args, code):
    result, data = run_json(runner, ["manilha", *args])
    assert result.exit_code == 2
    assert data["error"]["code"] == code


def test_manilha_json_rejects_other_variants():
    with pytest.raises(CardError) as info:
        manilha_json("7", variant="truco-15")
    assert info.value.code == "no_manilhas"


# --- compare ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("args", "winner"),
    [
        (["1 espada", "7 oro", "--variant", "truco-15"], "first"),  # the issue's example
        (["3 oro", "7 oro"], "second"),  # docs/rules.md §Argentine order
        (["1 copa", "1 oro"], "parda"),  # docs/rules.md §Argentine order
        (["6o", "3e", "--variant", "paulista", "--vira", "5"], "first"),  # docs/rules.md §Vira and manilhas
        (["3e", "3c", "--variant", "paulista", "--vira", "5c"], "parda"),  # docs/rules.md §Vira and manilhas
        (["zap", "copeta", "--variant", "paulista", "--vira", "3o"], "first"),
        (["pica-fumo", "3e", "--variant", "mineiro"], "first"),  # 7 de ouros > any 3
        (["10c", "1e", "--variant", "uruguaio", "--muestra", "6c"], "first"),  # docs/rules.md §Muestra and piezas
        (["1e", "2c", "--variant", "truc"], "second"),  # docs/rules.md §Catalan order
        (["QH", "JH", "--lang", "en", "--variant", "paulista", "--vira", "J", "--deck", "limpo"],
         "second"),  # vira J -> Ks; Q < J
    ],
)
def test_compare_table(runner, args, winner):
    result, data = run_json(runner, ["compare", *args])
    assert result.exit_code == 0, result.output
    assert data["winner"] == winner


def test_compare_json_shape(runner):
    result, data = run_json(runner, ["compare", "1 espada", "7 oro", "--variant", "truco-15"])
    assert data == compare_json("1 espada", "7 oro", variant="truco-15")
    assert (data["first"], data["second"]) == ("1e", "7o")
    assert (data["first_level"], data["second_level"]) == (1, 4)
    assert data["names"] == {"1e": "Ás de espadas", "7o": "7 de ouros"}


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["1 espada", "7 oro"], "Ás de espadas ganha de 7 de ouros"),
        (["7 oro", "1 espada", "--lang", "es"], "1 de espada le gana a 7 de oro"),
        (["1c", "1o", "--lang", "es"], "parda: 1 de copa empata con 1 de oro"),
        (["7d", "3s", "--lang", "en"], "7 of diamonds beats 3 of spades"),
    ],
)
def test_compare_text(runner, args, line):
    result = runner.invoke(cli, ["compare", *args])
    assert result.exit_code == 0
    assert result.output == line + "\n"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["1e", "1e"], "duplicate_card"),
        (["1e", "8o"], "no_eight_nine"),
        (["1e 2e", "3o"], "card_count"),
        (["zap", "3o"], "manilha_needs_vira"),
        (["3o", "4o", "--variant", "paulista"], "vira_required"),
        (["3o", "4o", "--variant", "uruguaio"], "muestra_required"),
        (["3o", "4o", "--vira", "5"], "vira_not_used"),
        (["3o", "4o", "--muestra", "1e"], "muestra_not_used"),
        (["3c", "4o", "--variant", "paulista", "--vira", "3c"], "duplicate_card"),
        (["4o", "3c", "--variant", "paulista", "--vira", "3", "--deck", "limpo"], "not_in_deck"),
    ],
)
def test_compare_errors(runner, args, code):
    result, data = run_json(runner, ["compare", *args])
    assert result.exit_code == 2
    assert data["error"]["code"] == code
    assert set(data["error"]) == {"code", "message", "allowed"}


def test_click_rejects_unknown_variant_with_status_2(runner):
    result = runner.invoke(cli, ["compare", "1e", "2e", "--variant", "truco"])
    assert result.exit_code == 2


@given(st.text(max_size=30), st.text(max_size=30))
def test_compare_json_junk_only_raises_card_error(first, second):
    try:
        data = compare_json(first, second, variant="paulista", vira="3o")
    except CardError:
        return
    assert data["winner"] in {"first", "second", "parda"}


@given(st.text(max_size=40), st.sampled_from([None, "1e", "zz"]), st.booleans())
def test_envido_json_junk_only_raises_card_error(cards, muestra, flor):
    try:
        data = envido_json(cards, flor=flor, muestra=muestra)
    except CardError:
        return
    assert 0 <= data["points"] <= 37


@given(st.one_of(st.none(), st.text(max_size=20)), st.sampled_from(["sujo", "limpo", "x"]))
def test_manilha_json_junk_only_raises_card_error(vira, deck):
    try:
        data = manilha_json(vira, deck=deck)
    except CardError:
        return
    assert len(data["manilhas"]) == 4


def test_a_muestra_puts_flor_in_play():
    """docs/rules.md §Envido count with a muestra: muestra 6 oro; 2 oro, 4 oro, 7 copa is a Flor (two piezas)
    worth 46 -- Uruguayan truco always plays Flor, so no --flor is needed (found by the breaker)."""
    from scorer.cli.cards_cli import envido_json

    result = envido_json("2o 4o 7c", muestra="6o")
    assert result["flor"] is True and result["flor_points"] == 46
