"""Rule tables for requests for clearly harmful content, one entry per category.

A request is harmful when a sentence pairs an *asking / making* phrase with a dangerous
*object* of its category, or uses a phrase that only a harmful request uses. Exemptions remove
the common benign readings (kill a process, fork bomb, warning signs, helping a friend).
Patterns run on `normalize()`d text (lower case, leetspeak undone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ASK = (
    r"(?:how (?:do|can|could|would|should|to|2)|how\s?to|how 2|steps?|step[- ]by[- ]step|"
    r"instructions?|recipe|guide|tutorial|teach me|tell me|explain|show me|give me|"
    r"best way|easiest way|quickest way|what(?:'s| is) the (?:best|easiest|quickest)|"
    r"help me|i want to|i need to|plan)"
)
_MAKE = (
    r"(?:make|making|build|building|create|construct|assemble|synthesi[sz]e|produce|"
    r"manufacture|cook|brew|culture|grow|convert|extract|press|weaponi[sz]e|get|buy|obtain)"
)
_CREATE_CODE = (
    r"(?:write|create|generate|build|code|make|develop|program|give me|craft|design|draft)"
)
# A virus is malware only where something says computer: "Create a virus animation for my
# biology class" and "a short video explaining how a virus infects a cell" are biology.
_COMPUTER_VIRUS = (
    r"(?:computer|macro|boot[- ]?sector|polymorphic|metamorphic|file[- ]?infecting|usb|email|"
    r"script|python|batch|vbs)\s+virus(?:es)?|virus(?:es)?\s+(?:that|which|to|in|for)\b.{0,40}\b"
    r"(?:files?|computers?|pcs?|laptops?|windows|system32|networks?|servers?|usb|drives?|disks?|"
    r"data|passwords?|tokens?|browsers?|registry|boot|python|powershell|batch|code)"
)
_PERSON = (
    r"(?:someone|somebody|a person|people|(?:my|his|her|the|a|our|their) "
    r"(?:husband|wife|partner|boss|neighbou?r|teacher|brother|sister|mother|father|mom|dad|"
    r"girlfriend|boyfriend|ex|coworker|roommate|friend|child|son|daughter|baby|family|"
    r"classmates?|kid|little brother|little sister|neighbou?r's \w+)|him|her|them|a child|"
    r"a kid|an? (?:old|elderly) (?:man|woman|person))"
)
_MINOR = (
    r"(?:child(?:ren)?|kids?|minors?|underage|under-age|preteens?|pre-teens?|teens?|"
    r"teenagers?|young (?:girl|boy)s?|little (?:girl|boy)s?|schoolgirls?|schoolboys?|"
    r"(?:1[0-7]|[1-9])[- ]?(?:years?|yrs?|yo)(?:[- ]old)?|students?|loli)"
)
_SEXUAL = (
    r"(?:sex|sexual(?:ly)?|sexy|erotic|erotica|nudes?|naked|explicit|porn\w*|lewd|nsfw|"
    r"intercourse|molest\w*|seduc\w*)"
)


# Chemical warfare agents of the Chemical Weapons Convention's Schedule 1 with no household,
# industrial or medical sense. Left to the classifiers: the nitrogen mustards (chemotherapy
# drugs too), and phosgene, chlorine and hydrogen cyanide (Schedule 3; "does bleach and ammonia
# make chlorine gas" is a safety question).
_CW_AGENT = r"(?:tabun|soman|cyclosarin|novichoks?|lewisites?|sulfur mustards?|sulphur mustards?)"
_AGENT = rf"(?:anthrax|ricin|sarin|vx|nerve agents?|mustard gas|botulinum|botulism|{_CW_AGENT})"
_PATHOGEN = (
    r"(?:virus(?:es)?|pathogens?|bacteri(?:um|a)|strains?|flu|influenza|coronavirus|smallpox|"
    r"plague|anthrax|ebola|measles)"
)
_ALTER = (
    r"(?:make|making|build|building|create|creating|engineer\w*|edit\w*|modify\w*|enhanc\w*|"
    r"mutat\w*|alter\w*|turn\w*|weaponi[sz]\w*|breed\w*|design\w*)"
)
_ENHANCED = (
    r"(?:more (?:lethal|deadly|transmissible|contagious|infectious|virulent|dangerous)|deadlier|"
    r"escapes?\s+(?:the\s+)?(?:current\s+|existing\s+)?(?:vaccines?|immunity|antibodies)|"
    r"vaccine[- ]resistant|resistant to (?:vaccines?|antibiotics|antivirals|treatment))"
)
_CARE = (
    r"(?:vaccines?|vaccinat\w*|antidotes?|treat\w*|exposure|poisoning|symptoms?|contagious|"
    r"affects?|public health)"
)


@dataclass(frozen=True, slots=True)
class HarmCategory:
    """`gate` is a cheap keyword test: a text without any of these word stems cannot match a
    pattern, so the category is skipped (keeps long messages well under a millisecond)."""

    name: str
    gate: re.Pattern[str]
    patterns: tuple[re.Pattern[str], ...]
    exemptions: tuple[re.Pattern[str], ...]


def _gate(stems: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{stems})")


def _c(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


WEAPONS = HarmCategory(
    "weapons",
    _gate(
        r"bomb|explosive|ied|napalm|thermite|detonator|molotov|silencer|suppressor|"
        rf"ghost gun|untraceable|nerve agent|sarin|vx|ricin|anthrax|mustard gas|{_CW_AGENT}|"
        r"chemical weapon|biological weapon|bioweapon|poison|toxic|deadly|automatic|full|"
        r"auto sear|bump stock|3d|spread|release|disperse|mass casualt"
    ),
    _c(
        rf"\b{_ASK}\b.{{0,60}}\b{_MAKE}\b.{{0,40}}\b(?:(?:pipe|nail|dirty|car|fertili[sz]er|"
        r"letter|homemade|suicide|nuclear|atomic)\s+)?bombs?\b",
        rf"\b{_MAKE}\b.{{0,30}}\b(?:explosives?|explosive devices?|ieds?|napalm|thermite|"
        r"detonators?|molotov(?: cocktails?)?|silencers?|suppressors?|ghost guns?|"
        r"untraceable (?:guns?|firearms?|weapons?)|nerve agents?|sarin|vx gas|ricin|"
        r"anthrax|mustard gas|chemical weapons?|biological weapons?|bioweapons?|"
        r"poison(?:ous)? gas|toxic gas|dirty bombs?|pipe bombs?|nail bombs?|"
        rf"{_CW_AGENT})\b",
        rf"\b{_ASK}\b.{{0,40}}\b(?:napalm|sarin|ricin|anthrax|nerve agents?|"
        r"chemical weapons?|bioweapons?|pipe bombs?|nail bombs?|dirty bombs?|molotov)",
        r"\bbombs?\b.{0,40}\b(?:take down|blow up|destroy|kill)\b.{0,20}\b"
        r"(?:buildings?|people|crowds?|planes?|bridges?)",
        r"\bconvert\b.{0,40}\b(?:to|into)\s+(?:full(?:y)?[- ]?auto(?:matic)?|automatic)",
        r"\b(?:auto sear|bump stock)s?\b.{0,30}\b(?:make|build|install|print)",
        r"\b3d[- ]print(?:ed)?\b.{0,20}\b(?:guns?|firearms?|receivers?)",
        r"\b(?:mix|combine)\b.{0,50}\b(?:poison(?:ous)?|toxic|deadly) gas\b.{0,40}"
        r"\b(?:hurt|kill|harm|attack)",
        r"\bpoison(?:ous)? gas\b.{0,30}\b(?:hurt|kill|harm)\b.{0,10}\b(?:someone|people)",
        r"\b(?:spread|release|disperse)\b.{0,30}\b(?:subway|metro|crowd|stadium|water supply)",
        r"\bmass casualt(?:y|ies)\b",
        r"\b(?:put together|wire up|rig)\b.{0,30}"
        r"\b(?:bombs?|explosive devices?|explosives?|ieds?)\b",
        r"\b(?:ingredients|components|materials|parts|chemicals|supplies|what do i need)\b.{0,40}"
        r"\b(?:(?:pipe|nail|car|letter|homemade|dirty) bombs?|explosive devices?|explosives?|ieds?)\b"
        r"(?! (?:detection|detector|disposal|trace))",
    ),
    _c(
        r"\b(?:fork|bath|photo|zip|logic) ?bombs?\b",
        r"\b(?:bomb|explosives?) (?:disposal|squad|detection|detector|sniffing)",
        r"\b(?:history|historically|manhattan project|what caused|world war)\b",
        r"\bbomb(?:ed)? (?:the|my|an?) (?:exam|test|interview|audition)",
        r"\bbomb[- ]?proof",
        # Medicine and public health, when the sentence asks to make or get none of it.
        rf"^(?!.*\b{_MAKE}\b).*"
        rf"(?:\b{_AGENT}\b.{{0,60}}\b{_CARE}\b|\b{_CARE}\b.{{0,40}}\b{_AGENT}\b)",
    ),
)

# Enhancing a pathogen: "make a virus escape the current vaccines", "build a more lethal version
# of a virus". A category of its own for its exemptions: why such work is controversial, its
# history and rules are questions to answer.
PATHOGENS = HarmCategory(
    "biological weapons",
    _gate(
        r"virus|pathogen|bacteri|strain|flu\b|influenza|coronavirus|smallpox|plague|anthrax|"
        r"ebola|measles"
    ),
    _c(
        rf"\b{_ALTER}\s+(?:an?|the|this|that|my|some|its)?\s*(?:[\w-]+\s+){{0,2}}{_PATHOGEN}\b"
        rf".{{0,40}}\b{_ENHANCED}",
        rf"\b{_ALTER}\s+(?:an?|the|this|that|my|some)?\s*{_ENHANCED}\s+(?:version|variant|strain|"
        rf"form)\s+of\s+(?:an?|the)?\s*(?:[\w-]+\s+){{0,2}}{_PATHOGEN}\b",
        rf"\b{_ALTER}\s+(?:an?|the)?\s*{_ENHANCED}\s+(?:[\w-]+\s+){{0,2}}{_PATHOGEN}\b",
    ),
    _c(
        r"\bwhy\b.{0,80}\b(?:controversial|banned|illegal|dangerous|risky|regulated|restricted)\b",
        r"\b(?:ethic\w*|debate\w*|controvers\w*|moratorium|oversight|biosafety|history|"
        r"regulat\w*) (?:of|over|around|about|on)\b",
        r"\b(?:vaccine|drug|antibiotic)s? (?:research|development|design|trial)",
    ),
)

VIOLENCE = HarmCategory(
    "violence",
    _gate(
        r"kill|murder|poison|tortur|kidnap|abduct|strangl|stab|shoot|hurt|beat up|assault|"
        r"drug|harm|spike|accident|stalk|track|spy|attack|bomb|most|max|manifesto|"
        r"encourag|incit|promot|throw|hurl|for a|so nobody"
    ),
    _c(
        rf"\b(?:{_ASK}|i (?:want|plan|am going) to)\b.{{0,40}}\b(?:kill|murder|poison|torture|"
        rf"kidnap|abduct|strangle|stab|shoot|hurt|beat up|assault|drug)\b(?:\s+\w+)?\s+{_PERSON}",
        rf"\b(?:kill|murder|poison|hurt|harm|torture)\w*\s+{_PERSON}.{{0,60}}"
        r"\b(?:without (?:getting caught|being (?:caught|seen|noticed)|leaving (?:marks|evidence|"
        r"a trace))|look like (?:an accident|a natural)|so (?:they|he|she) (?:don'?t|doesn'?t))",
        r"\b(?:poison|hurt|kill)\w*\s+(?:my|the|a)\s+(?:neighbou?r'?s?|ex'?s?)\s+"
        r"(?:dog|cat|pet|horse)",
        r"\bspike\s+(?:someone|somebody|her|his|their|a (?:girl|woman|man|person))'?s?\s+drinks?",
        r"\bmake (?:it|the death) look like an accident\b",
        r"\b(?:stalk|track|spy on)\b.{0,60}\bwithout (?:their|her|his|them)\s+"
        r"(?:consent|knowledge|knowing|noticing|permission)",
        r"\b(?:attack|shoot up|bomb)\b.{0,20}\b(?:a|the|my)\s+(?:school|church|mosque|synagogue|"
        r"temple|concert|crowd|mall|hospital|police station|office)",
        r"\b(?:most|maximum|max) (?:casualties|deaths|victims)\b",
        r"\b(?:kidnap|abduct)\w*\s+(?:a|the|my|some)\s+(?:child|kid|girl|boy|woman|person)",
        r"\bmanifesto\b.{0,60}\b(?:attacks?|violence|kill)",
        r"\b(?:encourag|incit|promot)\w*\b.{0,40}\b(?:terrorist attacks?|violence against)",
        r"\b(?:throw|hurl)\b.{0,20}\bat (?:a|the) (?:police|crowd|people|protesters|building)",
        r"\bfor a (?:mass )?shooting\b",
        r"\bso nobody hears\b.{0,20}\b(?:murder|shot|killing)",
    ),
    _c(
        r"\b(?:without|avoid|not|never|safely|humanely|prevent)\s+(?:\w+\s+)?"
        r"(?:harm|hurt|kill)\w*",
        r"\b(?:kill|terminate)\s+(?:a |the |all |my )?(?:\w+\s+)?(?:process|thread|job|task|"
        r"server|container|session|weeds?|mold|bacteria|pests?|rats?|mice|insects?|boss)\b",
        r"\b(?:novel|story|fiction|game|chess|elden ring|call of duty|movie|screenplay)\b",
        r"\b(?:vigil|memorial|victims of|survivors of|after (?:an?|the) (?:attack|shooting|"
        r"bombing))\b",
    ),
)

SELF_HARM = HarmCategory(
    "self-harm",
    _gate(
        r"myself|suicide|my (?:own )?life|die\b|death|overdose|od\b|bleed|slit|wrist|cut|"
        r"self[- ]?harm|scars|themselves|himself|herself|yourself|method|wake up|painless|end it"
    ),
    _c(
        r"\b(?:kill|hang|off|drown|poison|shoot)\s+myself\b",
        r"\bcommit(?:ting)? suicide\b",
        r"\b(?:end|take) my (?:own )?life\b",
        r"\b(?:painless|quickest|fastest|easiest|best|surest)\s+(?:way|method)s?\s+to\s+"
        r"(?:die|kill myself|end it)",
        r"\b(?:painless|quick)(?:ly)? (?:death|suicide)\b",
        r"\bhow (?:many|much)\b.{0,40}\b(?:to|until i|before i) (?:die|overdose|od)\b",
        # "how many of my sleeping pills would it take to not wake up": a dose, and an end to
        # waking, not "...to not wake up at 3am" or "...not wake up groggy".
        r"\bhow (?:many|much)\b.{0,50}\b(?:pills?|tablets?|meds|medications?|sleeping|"
        r"paracetamol|tylenol|ibuprofen|insulin|xanax|opioids?)\b.{0,40}\b(?:to|so i|and)\s+"
        r"(?:not|never|don'?t) wake up(?: again| ever| anymore)?\s*(?:$|[.?!,])",
        r"\b(?:bleed out|slit my|cut(?:ting)? (?:my|your) wrists?|cut deeper)\b",
        r"\bhid(?:e|ing) (?:my |the )?(?:self[- ]?harm|cuts|scars|cutting)\b",
        r"\bkeep (?:doing it|cutting|hurting myself)\b",
        r"\bstarv\w* myself\b",
        r"\b(?:make|making) myself (?:throw up|vomit|purge)\b",
        r"\b(?:persuade|convince|encourage|get|tell|push)\w*\b.{0,50}\bto\s+"
        r"(?:kill|hurt|harm|cut)\s+(?:themselves|himself|herself|yourself)\b",
        r"\bwhich (?:suicide )?method\b.{0,20}\b(?:quickest|fastest|best|painless)",
        r"\bsuicide method",
    ),
    _c(
        r"\b(?:help (?:her|him|them|my|a)|warning signs|hotline|prevent|talk to|cope|therapy)\b",
        # Someone on the receiving end: "my son got messages telling him to kill himself".
        r"\b(?:got|gets|getting|received?|receiving)\b.{0,30}\b(?:messages?|texts?|comments?|"
        r"dms?)\b.{0,20}\btelling\b",
    ),
)

MALWARE = HarmCategory(
    "malware",
    _gate(
        r"ransomware|keylogger|rootkit|botnet|spyware|stealer|malware|trojan|backdoor|"
        r"worm|virus|exploit|phishing|skimmer|ddos|into|hack|steal|brute|defender|"
        r"antivirus|av\b|edr|take over|lock|spy on"
    ),
    _c(
        rf"\b{_CREATE_CODE}\b.{{0,40}}\b(?:ransomware|keyloggers?|rootkits?|botnets?|spyware|"
        r"(?:password|credential|cookie|info)[- ]?stealers?|malware|trojans?|backdoors?|"
        rf"worms?|{_COMPUTER_VIRUS}|exploits?|phishing (?:emails?|pages?|sites?|messages?|kits?)|"
        r"card skimmers?|skimmers?|ddos (?:tools?|scripts?))\b(?! (?:mitigation|detection|"
        r"protection|report|section|analysis|defen[cs]e))",
        r"\b(?:hack|break|get)\w*\s+into\s+(?:someone|somebody|other|my (?:ex|boss|neighbou?r|"
        r"wife|husband|partner|girlfriend|boyfriend|ex-\w+)|(?:a|an|the|his|her|their)\b)"
        r".{0,40}\b(?:accounts?|phones?|emails?|computers?|networks?|wifi|wi-fi|databases?|"
        r"servers?|instagram|facebook|snapchat|icloud|bank)",
        r"\bhack(?:ing)?\s+(?:a|an|the|someone'?s?|somebody'?s?)\s+(?:\w+'?s?\s+)?"
        r"(?:bank|database|account|phone|server|network|email|computer|website)",
        r"\b(?:launch|perform|carry out|do|run|start)\w*\s+(?:a\s+)?ddos\b",
        r"\bsteal\w*\b.{0,40}\b(?:passwords?|credentials|cookies|logins?|card numbers?|"
        r"identit(?:y|ies)|money)",
        r"\bbrute[- ]?forc\w*\b.{0,60}\b(?:someone|somebody|other people|else'?s)",
        r"\b(?:disables?|evades?|bypass\w*|hides? from)\s+(?:windows defender|antivirus|av|edr)",
        r"\b(?:take over|lock)\b.{0,30}\b(?:hospital|victim'?s?|other people'?s)\b",
        r"\bspy on\b.{0,30}\b(?:traffic|messages|someone|their)",
    ),
    _c(
        r"\b(?:hack together|hackathon|life ?hack|my own|i forgot|recover my|reset my|"
        r"protect\w*|defend|defends|detect|detects|remove|report|"
        r"mitigate|mitigation)\b",
    ),
)

CSAM = HarmCategory(
    "sexual content involving minors",
    _gate(
        r"sex|erotic|nude|naked|explicit|porn|lewd|nsfw|intercourse|molest|seduc|groom|"
        r"meet me alone|trust me|send me"
    ),
    _c(
        rf"\b{_SEXUAL}\b.{{0,80}}\b{_MINOR}\b",
        rf"\b{_MINOR}\b.{{0,60}}\b{_SEXUAL}\b",
        r"\bgroom(?:ing)?\s+(?:a|an|the|this|young|little|some)?\s*(?:young\s+)?"
        r"(?:child|kid|minor|boy|girl|teen)",
        r"\b(?:child|kid|minor|teen)\w*\b.{0,40}\b(?:meet me alone|trust me and meet|"
        r"send me (?:pics|photos|pictures|nudes))",
    ),
    _c(
        r"\b(?:protect|prevent|report|recogni[sz]e|signs of|warning signs|talk to (?:my|your)|"
        r"body safety|education|abused\?|suspect|expose|condemn|combat|fight against|"
        r"law enforcement|investigat\w*)\b",
        # A child who came across it, or a warning that it is risky: a parent's question.
        r"\b(?:found|saw|came across|stumbled (?:on|upon)|(?:was|were|been) shown|watched)\b"
        r".{0,20}\bporn",
        r"\b(?:is|are) (?:risky|dangerous|illegal|harmful)\b",
    ),
)

DRUGS_AND_FRAUD = HarmCategory(
    "illegal drugs and fraud",
    _gate(r"meth|crack|cocaine|heroin|fentanyl|lsd|mdma|ghb|crystal|launder|counterfeit"),
    _c(
        rf"\b(?:{_MAKE}|sell|selling)\b.{{0,40}}\b(?:meth(?:amphetamine)?|crack(?: cocaine)?|"
        r"cocaine|heroin|fentanyl|lsd|mdma|ghb|crystal meth)\b",
        r"\b(?:meth(?:amphetamine)?|crack|heroin|fentanyl)\b.{0,30}\b(?:at home|in my|"
        r"step by step|pills to sell|lab)\b",
        r"\blaunder(?:ing)?\b.{0,20}\bmoney\b",
        r"\bcounterfeit\w*\b.{0,20}\b(?:money|bills|currency|notes)",
    ),
    _c(
        r"\b(?:health risks|risks of|dangers of|effects of|addiction|treatment|recovery|"
        r"overdose symptoms|why is|detect\w*|spot|recogni[sz]e|identify|tell if|prevent\w*|"
        r"report|in history|history of|historically)\b",
    ),
)

CATEGORIES = (WEAPONS, PATHOGENS, VIOLENCE, SELF_HARM, MALWARE, CSAM, DRUGS_AND_FRAUD)
