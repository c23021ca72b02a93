"""Cheap phrase rules for prompt injection and jailbreak attempts.

They catch the stock phrasings (override earlier instructions, extract the hidden prompt,
switch to an unrestricted persona) in microseconds; the model rails catch the paraphrases.
Each rule needs an action aimed at the assistant's own rules, so questions *about* injection or
system prompts ("what is prompt injection?", "how do I write a system prompt?") pass.
"""

from __future__ import annotations

import re

from guardrails.base import Action, Verdict
from guardrails.text import normalize

_PRIOR = r"(?:previous|prior|preceding|above|earlier|original|initial|old|foregoing|former)"
_RULES = (
    r"(?:instructions?|directions?|directives?|rules|guidelines|prompts?|commands|"
    r"guidance|programming|restrictions|constraints|policies|tasks?)"
)
_HIDDEN = r"(?:system|initial|hidden|original|secret|internal|developer|confidential|starting)"
_PROMPT = r"(?:prompt|instructions?|message|configuration|rules|guidelines|directives?)"
_SHOW = r"(?:reveal|show|print|output|repeat|display|tell|give|share|dump|leak|copy|write out)"

_RULE_SPECS: list[tuple[str, str]] = [
    (
        "override of earlier instructions",
        rf"\b(?:ignore|disregard|forget|override|skip|bypass|abandon|drop|discard)\b"
        rf"(?:\W+\w+){{0,4}}?\W+{_PRIOR}\W+(?:\w+\W+){{0,2}}?{_RULES}",
    ),
    (
        "override of the assistant's rules",
        rf"\b(?:ignore|disregard|forget|override|bypass|abandon|drop)\s+(?:all\s+)?(?:of\s+)?"
        rf"(?:your|the\s+(?:system|safety))\s+(?:\w+\s+)?{_RULES}",
    ),
    (
        "override of earlier instructions",
        r"\b(?:ignore|disregard|forget)\s+(?:everything|all|anything|the text|what was said)?"
        r"\s*(?:written\s+)?(?:above|before this)\b",
    ),
    (
        "instructions declared void",
        rf"\b(?:your|the|all)\s+{_PRIOR}\s+{_RULES}\s+(?:are|is)\s+(?:now\s+)?"
        r"(?:cancel+ed|void|revoked|obsolete|no longer valid|replaced)",
    ),
    (
        "previous rules declared void",
        r"\b(?:previous|prior|old)\s+rules\s+(?:no longer|don'?t|do not)\s+apply",
    ),
    (
        "request for the hidden prompt",
        rf"\b{_SHOW}\b(?:\W+\w+){{0,3}}?\W+(?:your|the)\s+(?:\w+\s+){{0,2}}?{_HIDDEN}\s+{_PROMPT}",
    ),
    (
        "request for the hidden prompt",
        r"\b(?:repeat|print|output|copy)\b.{0,30}\b(?:text|everything|words?)\s+"
        r"(?:above|before this)",
    ),
    (
        "request for the hidden prompt",
        r"\b(?:instructions|prompt)\s+(?:you were|you've been|you have been)\s+given\b",
    ),
    (
        "request for the hidden prompt",
        rf"\b(?:begin|start|open)\s+(?:your|the)\s+(?:reply|response|answer)\s+(?:\w+\s+)?with\s+"
        rf"(?:the|your)\s+(?:\w+\s+){{0,2}}?(?:{_HIDDEN}\s+)?{_PROMPT}",
    ),
    (
        "request for the hidden prompt",
        r"\b(?:instructions|rules|prompt|guidelines)\s+(?:that\s+)?(?:your|the)\s+"
        r"(?:developers?|creators?|makers?|operators?)\s+(?:wrote|gave|set|programmed)",
    ),
    ("fake system message", r"(?:^|\n|\s)(?:system|admin|developer)\s*(?::|override\b)"),
    (
        "unrestricted persona",
        r"\b(?:do anything now|jailbreak(?:ed)? mode|enable jailbreak|dan mode|"
        r"stan\b.{0,20}avoid norms|aim\b.{0,40}machiavellian)",
    ),
    # "Developer mode" and "god mode" are also real settings (Chrome, Android, games): only the
    # persona forms count, the model put into the mode or answering from it.
    (
        "unrestricted persona",
        r"\b(?:you(?:'re| are)?\s+(?:now\s+)?(?:in|entering|running in|operating in|switched to)"
        r"|(?:act|acting|simulate|pretend)\b.{0,40}\bwith)\s+(?:the\s+)?(?:developer|god)\s+mode",
    ),
    (
        "unrestricted persona",
        r"\b(?:developer|god)\s+mode\s+(?:output|response|answer)s?\b"
        r"|\bin\s+(?:developer|god)\s+mode,?\s+you\b",
    ),
    (  # an order opening a sentence, not a question about a setting
        "unrestricted persona",
        r"(?:^|[.!?:]\s+)(?:please\s+)?(?:enable|enter|activate|switch to|turn on)\s+"
        r"(?:the\s+)?(?:developer|god)\s+mode\b",
    ),
    (
        "unrestricted persona",
        r"\b(?:no|without(?: any)?|zero|free of)\s+(?:\w+\s+)?(?:restrictions|filters?|limits|"
        r"limitations|censorship|guidelines|rules|ethical (?:limits|constraints|guidelines)|"
        r"moral (?:or ethical )?guidelines)\b",
    ),
    (
        "unrestricted persona",
        r"\b(?:uncensored|unfiltered|unrestricted)\s+(?:ai|model|assistant|mode|version|chatbot)",
    ),
    (
        "safety switched off",
        r"\b(?:safety|content)\s+(?:filters?|polic(?:y|ies)|protocols?|rules|training)"
        r"(?:\s*[:=]\s*off|\s+(?:is|are)\s+(?:now\s+)?(?:disabled|off|suspended)|"
        r"\s+does not exist|\s+don'?t exist)",
    ),
    (
        "safety switched off",
        r"\b(?:disable|turn off|switch off|remove|drop|bypass|override|disregard)\s+"
        r"(?:all\s+)?(?:your|the|its)\s+(?:\w+\s+)?(?:safety|content)\s+"
        r"(?:filters?|rules|protocols?|polic(?:y|ies)|training|guidelines)",
    ),
    (
        "refusal suppression",
        r"\b(?:never|don'?t|do not|must not|cannot)\s+(?:ever\s+)?(?:refuse|say (?:no|you can'?t)|"
        r"mention (?:policies|guidelines|your rules))",
    ),
    # "Never apologize" is a jailbreak's, "don't apologise so much" a tired user's.
    ("refusal suppression", r"\bnever\s+(?:ever\s+)?apologi[sz]e\b"),
    (
        "refusal suppression",
        r"\b(?:stay|remain) in character\b.{0,60}\b(?:no matter|even if|illegal|never break)",
    ),
    ("planted instruction", r"\b(?:note to|attention|hey) (?:the )?(?:ai|assistant|llm|model)\b"),
    ("planted instruction", r"\b(?:ai|assistant) (?:reading this|must now)\b"),
]
_RULES_COMPILED = [(reason, re.compile(p)) for reason, p in _RULE_SPECS]


class InjectionRulesRail:
    name = "injection_rules"

    def check(self, text: str) -> Verdict:
        norm = normalize(text)
        for reason, rx in _RULES_COMPILED:
            m = rx.search(norm)
            if m:
                return Verdict(Action.BLOCK, self.name, reason, 1.0, m[0])
        return Verdict.allow(self.name)
