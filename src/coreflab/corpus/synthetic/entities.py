"""Entities of a synthetic document and how each mention of them is worded.

An entity has a kind (person, org, place, object), gender (m/f/n), number (sg/pl),
names and a nominal descriptor. `realise` writes one mention into the builder as an NP
(or a possessive pronoun token) and picks its form from the discourse state, the way
Centering-style salience drives pronominalisation: a recently mentioned entity tends to
become a pronoun, an older one a surname, a definite description or its full name.
First mentions are full names, indefinite descriptions or appositions (NP -> NP , NP).
Inside quoted speech and dialogue turns the speaker is "I" and the addressee "you".
"""

from coreflab.corpus.synthetic import lexicon as lex


class Entity:
    __slots__ = (
        "id",
        "kind",
        "gender",
        "number",
        "first",
        "last",
        "name",
        "short",
        "desc",
        "desc_ambiguous",
        "modifier",
        "ne",
        "mentions",
        "last_sent",
        "sal",
        "named",
        "once",
    )

    def __init__(self, eid, kind, gender, number):
        self.id, self.kind, self.gender, self.number = eid, kind, gender, number
        self.first = self.last = self.short = None
        self.name = ()
        self.desc = ("thing", "things")
        self.desc_ambiguous = False
        self.modifier = None
        self.ne = None
        self.mentions = 0
        self.last_sent = -100
        self.sal = 0.0
        self.named = False  # has a name mention been made (fixes the gender of the cluster)
        self.once = False  # a one-off entity: mentioned once, so not in the key


def make_topic(rnd, size=4):
    """The document's topic: the few person descriptors and object heads it draws from, so
    that, as in a real story, two entities often share a head ("the doctor", "the report")."""
    return {
        "person": [rnd.pick(lex.AMBIGUOUS_DESCRIPTORS) for _ in range(size)],
        "object": [rnd.pick(lex.OBJECTS) for _ in range(size)],
    }


def make_entity(eid, kind, rnd, knobs, existing, topic):
    """A new entity of `kind`. Descriptors come from the document topic; a new entity
    keeps a descriptor (or surname) an existing entity has with probability
    `distractor_rate`, so string and head matching meet false friends."""
    plural = rnd.chance(knobs["plural_rate"])
    if kind == "person":
        if plural:
            e = Entity(eid, kind, rnd.pick("mf"), "pl")
            head = rnd.pick(lex.GROUP_DESCRIPTORS)
            e.desc = (head[:-1] if not head.endswith("men") else head, head)
            e.desc_ambiguous = True
            return e
        singles = [x for x in existing if x.kind == "person" and x.number == "sg"]
        if singles and rnd.chance(knobs["same_gender_rate"]):  # competitors for "he"/"she"
            gender = singles[-1].gender
        else:
            gender = rnd.pick("mf")
        e = Entity(eid, kind, gender, "sg")
        e.first = rnd.pick(lex.MALE_FIRST if gender == "m" else lex.FEMALE_FIRST)
        persons = [x for x in existing if x.kind == "person" and x.last]
        if persons and rnd.chance(knobs["distractor_rate"] * 0.4):  # a relative: same surname
            e.last = rnd.pick(persons).last
        else:
            e.last = rnd.pick(lex.SURNAMES)
        e.name = (e.first, e.last)
        e.short = e.last
        e.ne = "PERSON"
        used = {x.desc for x in existing if x.kind == "person"}
        if rnd.chance(knobs["ambiguous_nominal_rate"]):
            e.desc = rnd.pick(topic["person"])
            e.desc_ambiguous = True
            if e.desc in used and not rnd.chance(knobs["distractor_rate"]):
                e.desc = rnd.pick(lex.AMBIGUOUS_DESCRIPTORS)
        else:
            e.desc = rnd.pick(lex.MALE_DESCRIPTORS if gender == "m" else lex.FEMALE_DESCRIPTORS)
        if rnd.chance(0.3):
            e.modifier = rnd.pick(lex.PERSON_MODIFIERS)
        return e
    if kind == "org":
        e = Entity(eid, kind, "n", "sg")
        second = rnd.pick(lex.ORG_SECOND)
        e.short = rnd.pick(lex.ORG_FIRST)
        e.name = (e.short, second)
        d = lex.ORG_DESCRIPTOR[second]
        e.desc = (d, d + "s")
        e.ne = "ORG"
        return e
    if kind == "place":
        e = Entity(eid, kind, "n", "sg")
        if rnd.chance(0.7):
            e.short = rnd.pick(lex.CITIES)
            e.desc = ("city", "cities")
        else:
            e.short = rnd.pick(lex.COUNTRIES)
            e.desc = ("country", "countries")
        e.name = (e.short,)
        e.ne = "GPE"
        return e
    e = Entity(eid, "object", "n", "pl" if plural else "sg")
    used = {x.desc for x in existing if x.kind == "object"}
    e.desc = rnd.pick(topic["object"])
    if e.desc in used and not rnd.chance(knobs["distractor_rate"]):
        e.desc = rnd.pick(lex.OBJECTS)
    if rnd.chance(0.35):
        e.modifier = rnd.pick(lex.OBJECT_MODIFIERS)
    return e


def pronoun_forms(e):
    return lex.PRONOUNS[(e.gender, e.number)]


class Realiser:
    """Writes mentions into a DocBuilder; holds the discourse context (speaker, addressee)."""

    def __init__(self, sb, rnd, knobs):
        self.sb, self.rnd, self.knobs = sb, rnd, knobs
        self.speaker = None
        self.addressee = None
        self.sent = 0
        self.apposition_ended = False  # the last mention was an apposition (NP , NP)
        # an entity last mentioned this many sentences back or fewer may become a pronoun
        self.pronoun_reach = int(knobs["pronoun_reach"])

    def _note(self, e):
        e.mentions += 1
        e.last_sent = self.sent
        e.sal += 1.0

    def _word_np(self, e, tokens, ne=None):
        """NP over (word, pos, lemma) tokens, marked as a mention of e."""
        sb = self.sb
        sb.open("NP", None if e is None else e.id)
        start = sb.n
        for w, p, l in tokens:
            sb.tok(w, p, l)
        if ne is not None:
            sb.mark_ne(start, sb.n - 1, ne)
        sb.close()

    def realise(self, e, case="subj", force=None):
        """One mention of e as an NP; case is subj, obj or poss (possessive determiner)."""
        rnd, k = self.rnd, self.knobs
        self.apposition_ended = False
        if e is self.speaker or e is self.addressee:
            forms = lex.FIRST_PERSON if e is self.speaker else lex.SECOND_PERSON
            self._pronoun(e, forms, case)
        elif force == "pronoun" or (
            force is None
            and e.mentions
            and self.sent - e.last_sent <= self.pronoun_reach
            and rnd.chance(k["pronoun_rate"])
        ):
            forms = pronoun_forms(e)
            if e.kind == "org" and rnd.chance(k["org_they_rate"]):  # "Acme said they ...": notional plural
                forms = lex.PRONOUNS[("n", "pl")]
            self._pronoun(e, forms, case)
        elif case == "poss":
            self._possessor(e)
        elif force == "nominal":
            self._nominal(e, modifier=False, synonym=False)
        elif e.mentions == 0:
            self._first(e)
        else:
            self._subsequent(e)
        self._note(e)

    def _pronoun(self, e, forms, case):
        sb = self.sb
        if case == "poss":
            sb.tok(forms[2], "PRP$", forms[2].lower())
            sb.mark(e.id, sb.n - 1, sb.n - 1)
            return
        word = forms[0] if case == "subj" else forms[1]
        sb.open("NP", e.id)
        sb.tok(word, "PRP", word.lower())
        sb.close()

    def _name_tokens(self, e, full):
        if e.kind == "person":
            words = e.name if full else (e.last,)
        elif e.kind == "org":
            words = e.name if full else (e.short,)
        else:
            words = e.name
        return [(w, "NNP", w) for w in words]

    def _possessor(self, e):
        """NP (NP name 's) ...: the caller continues the outer NP with the possessed noun."""
        sb = self.sb
        if e.ne is not None:
            toks = self._name_tokens(e, full=e.mentions == 0 or self.rnd.chance(0.3))
            sb.open("NP", e.id)
            start = sb.n
            for w, p, l in toks:
                sb.tok(w, p, l)
            sb.mark_ne(start, sb.n - 1, e.ne)
            sb.tok("'s", "POS", "'s")
            sb.close()
        else:
            sb.open("NP", e.id)
            self._det_noun(e, "the")
            sb.tok("'s", "POS", "'s")
            sb.close()

    def _det_noun(self, e, det, modifier=False, synonym=False):
        sb = self.sb
        sing, plur = e.desc
        noun = sing if e.number == "sg" else plur
        if synonym and noun in lex.SYNONYMS:  # singular heads, and the plural group heads
            noun = lex.SYNONYMS[noun]
            sing = noun[:-1] if e.number == "pl" else noun
        use_mod = bool(modifier and e.modifier)
        if det == "a" and e.number == "pl":
            det = "some"
        elif det == "a" and (e.modifier if use_mod else noun)[0] in "aeiou":
            det = "an"
        sb.tok(det, "DT", det)
        if use_mod:
            sb.tok(e.modifier, "JJ", e.modifier)
        sb.tok(noun, "NN" if e.number == "sg" else "NNS", sing)

    def _nominal(self, e, modifier=None, det="the", synonym=None):
        if modifier is None:
            modifier = self.rnd.chance(0.3)
        if synonym is None:
            synonym = e.mentions > 0 and self.rnd.chance(self.knobs["synonym_rate"])
        self.sb.open("NP", e.id)
        self._det_noun(e, det, modifier, synonym)
        self.sb.close()

    def _named(self, e, full):
        toks = self._name_tokens(e, full)
        self._word_np(e, toks, ne=e.ne)
        e.named = True

    def _first(self, e):
        rnd, k, sb = self.rnd, self.knobs, self.sb
        if e.kind == "person" and e.number == "sg":
            if rnd.chance(k["apposition_rate"]):
                # (NP (NP John Smith) (, ,) (NP a doctor)): the outer NP is the mention
                sb.open("NP", e.id)
                sb.open("NP", None, e.ne)
                for w, p, l in self._name_tokens(e, True):
                    sb.tok(w, p, l)
                sb.close()
                sb.tok(",", ",", "-")
                sb.open("NP")
                self._det_noun(e, "a", modifier=True)
                sb.close()
                sb.close()
                e.named = True
                self.apposition_ended = True
            else:
                self._named(e, True)
        elif e.kind == "person":
            self._nominal(e, modifier=False, det=rnd.pick(("the", "some", "several")))
        elif e.kind in ("org", "place"):
            self._named(e, True)
        else:
            self._nominal(e, modifier=True, det="a")

    def _subsequent(self, e):
        rnd, k = self.rnd, self.knobs
        if e.kind == "person" and e.number == "sg":
            if rnd.chance(k["nominal_rate"]):
                self._nominal(e)
            elif rnd.chance(0.15):
                title = "Dr." if e.desc[0] in ("doctor", "surgeon") else ("Mr." if e.gender == "m" else "Ms.")
                sb = self.sb
                sb.open("NP", e.id)
                sb.tok(title, "NNP", title)
                sb.tok(e.last, "NNP", e.last)
                sb.mark_ne(sb.n - 2, sb.n - 1, "PERSON")
                sb.close()
            elif rnd.chance(k["first_name_rate"]):  # first name only ("Mary"), as in feature stories
                self._word_np(e, [(e.first, "NNP", e.first)], ne=e.ne)
            else:
                self._named(e, full=rnd.chance(0.3))
        elif e.kind == "person":
            self._nominal(e, modifier=False)
        elif e.kind == "org":
            if rnd.chance(k["nominal_rate"] + 0.1):
                self._nominal(e, modifier=False)
            else:
                self._named(e, full=rnd.chance(0.4))
        elif e.kind == "place":
            if rnd.chance(k["nominal_rate"]):
                self._nominal(e, modifier=False)
            else:
                self._named(e, True)
        else:
            self._nominal(e, modifier=rnd.chance(0.4), det=rnd.pick(("the", "the", "the", "this")))

    def possessed_first(self, e, owner):
        """First mention of an object as "his report" / "Acme 's report" (nested mentions)."""
        sb = self.sb
        sb.open("NP", e.id)
        self.realise(owner, "poss")
        sing, plur = e.desc
        if e.modifier:
            sb.tok(e.modifier, "JJ", e.modifier)
        sb.tok(sing if e.number == "sg" else plur, "NN" if e.number == "sg" else "NNS", sing)
        sb.close()
        self._note(e)

    def generic_np(self):
        """A non-referential NP (never a mention): 'the economy', 'the price of oil', 'last year'."""
        toks, tags, ne = self.rnd.pick(lex.GENERIC_NPS)
        sb = self.sb
        sb.open("NP")
        if self.rnd.chance(0.25):
            det, head = self.rnd.pick(lex.OF_HEADS)
            sb.open("NP")
            sb.tok(det, "DT", det)
            sb.tok(head, "NN", head)
            sb.close()
            sb.open("PP")
            sb.tok("of", "IN", "of")
            sb.open("NP")
            self._words(toks, tags, ne)
            sb.close()
            sb.close()
        else:
            self._words(toks, tags, ne)
        sb.close()

    def _words(self, toks, tags, ne):
        sb = self.sb
        start = sb.n
        for w, t in zip(toks, tags):
            sb.tok(w, t, w.lower())
        if ne:
            sb.mark_ne(start, sb.n - 1, ne)

    def pp_phrase(self, toks, tags, ne):
        """(PP (IN on) (NP Tuesday)); "according to the media" and "the end of the year" nest."""
        sb = self.sb
        sb.open("PP")
        k = 2 if tags[1] == "TO" else 1
        if k == 2:
            sb.tok(toks[0], tags[0], toks[0].lower())
            sb.open("PP")
        sb.tok(toks[k - 1], tags[k - 1], toks[k - 1].lower())
        rest, rtags = toks[k:], tags[k:]
        sb.open("NP")
        if "of" in rest:
            j = rest.index("of")
            sb.open("NP")
            self._words(rest[:j], rtags[:j], None)
            sb.close()
            sb.open("PP")
            sb.tok("of", "IN", "of")
            sb.open("NP")
            self._words(rest[j + 1 :], rtags[j + 1 :], ne)
            sb.close()
            sb.close()
        else:
            self._words(rest, rtags, ne)
        sb.close()
        if k == 2:
            sb.close()
        sb.close()

    def distractor_np(self, e):
        """An NP sharing the head noun of object entity e but not coreferent ('another report')."""
        sb = self.sb
        sing, plur = e.desc
        sb.open("NP")
        sb.tok("another", "DT", "another")
        sb.tok(sing, "NN", sing)
        sb.close()
