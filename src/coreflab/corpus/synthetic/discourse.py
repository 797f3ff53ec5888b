"""The discourse of one synthetic document: a salience process over entities and sentence frames.

`DocumentGenerator.run` writes sentences until the document has its length: plain clauses
(simple, subordinate, coordinated; with adverbials and temporal PPs that carry no mention),
quoted speech with speaker changes, dialogue turns, pleonastic "it", and the non-local case
(see `nonlocal_case`). Which entity fills an NP slot is drawn from recency-decayed salience
weights (a new planned entity, a one-off entity, or an active one), the way topic continuity
works in Centering Theory (Grosz, Joshi & Weinstein 1995); `synthetic_entities.Realiser`
chooses the words.
"""

from coreflab.corpus.synthetic import lexicon as lex
from coreflab.corpus.synthetic.builder import DocBuilder
from coreflab.corpus.synthetic.entities import Realiser, make_entity, make_topic

# relative frequency of entity kinds among new entities
KIND_WEIGHTS = (("person", 0.45), ("org", 0.17), ("place", 0.06), ("object", 0.32))


class Rand:
    """Fast scalar draws from a numpy Generator (buffered uniforms; per-call numpy is slow)."""

    def __init__(self, rng):
        self.rng, self.buf, self.i = rng, [], 0

    def u(self):
        if self.i >= len(self.buf):
            self.buf, self.i = self.rng.random(512).tolist(), 0
        self.i += 1
        return self.buf[self.i - 1]

    def chance(self, p):
        return self.u() < p

    def pick(self, seq):
        return seq[int(self.u() * len(seq))]

    def weighted(self, items, weights):
        r = self.u() * sum(weights)
        for item, w in zip(items, weights):
            r -= w
            if r < 0:
                return item
        return items[-1]


class DocumentGenerator:
    """The salience process and the sentence frames of one document."""

    def __init__(self, rnd, knobs, n_sent, dialogue):
        self.rnd, self.k, self.n_sent, self.dialogue = rnd, knobs, n_sent, dialogue
        self.sb = DocBuilder()
        self.R = Realiser(self.sb, rnd, knobs)
        self.entities = []
        self.topic = make_topic(rnd)
        self.n_plan = max(2, int(round(n_sent * knobs["entities_per_sentence"])))
        self.n_planned_made = 0
        self.sent = 0
        self.force_subject = None
        self.last_subject = None
        self.speakers = None

    # -- entities -------------------------------------------------------------------
    def new_entity(self, kinds=None, once=False):
        weights = [(kd, w) for kd, w in KIND_WEIGHTS if kinds is None or kd in kinds]
        kind = self.rnd.weighted([kd for kd, _ in weights], [w for _, w in weights])
        e = make_entity(len(self.entities), kind, self.rnd, self.k, self.entities, self.topic)
        e.once = once
        self.entities.append(e)
        if not once:
            self.n_planned_made += 1
        return e

    def pick(self, exclude=(), kinds=None):
        """An entity for an NP slot: a new planned one, a one-off, or a salient one."""
        rnd = self.rnd
        cands = [e for e in self.entities if not e.once and e not in exclude and (kinds is None or e.kind in kinds)]
        remaining = self.n_plan - self.n_planned_made
        p_new = 0.8 if not cands else min(0.8, 0.6 * remaining / max(1, self.n_sent - self.sent))
        if remaining > 0 and rnd.chance(p_new) or not cands:
            return self.new_entity(kinds)
        if rnd.chance(self.k["singleton_rate"]):
            return self.new_entity(kinds, once=True)
        return rnd.weighted(cands, [e.sal + 0.1 for e in cands])

    def pick_person(self, exclude=()):
        e = self.pick(exclude, kinds=("person",))
        return e if e.number == "sg" else None

    # -- document ----------------------------------------------------------------------
    def run(self):
        rnd, k = self.rnd, self.k
        if self.dialogue:
            a = self.new_entity(("person",))
            b = self.new_entity(("person",), once=False)
            for e in (a, b):
                e.number = "sg"
                if e.first is None:  # a group drawn as speaker: make it a named person
                    e.first, e.last = (
                        rnd.pick(lex.FEMALE_FIRST if e.gender == "f" else lex.MALE_FIRST),
                        rnd.pick(lex.SURNAMES),
                    )
                    e.name, e.short, e.ne = (e.first, e.last), e.last, "PERSON"
            self.speakers = [a, b]
        while self.sent < self.n_sent:
            self.R.sent = self.sent
            for e in self.entities:
                e.sal *= 0.6
            if self.dialogue:
                self.dialogue_turn()
            elif self.force_subject is None and rnd.chance(k["nonlocal_rate"]) and self.nonlocal_case():
                pass
            elif self.force_subject is None and rnd.chance(k["quote_rate"]) and self.quote():
                pass
            elif self.force_subject is None and rnd.chance(k["pleonastic_it_rate"]):
                self.pleonastic()
            else:
                self.plain()
        return self.sb

    def _next_sentence(self):
        self.sent += 1
        self.R.sent = self.sent

    def plain(self):
        sb, rnd = self.sb, self.rnd
        sb.begin_sentence()
        if rnd.chance(0.6):  # sentence adverbial: "On Monday ," / "Meanwhile ,"
            if rnd.chance(0.7):
                self.R.pp_phrase(*rnd.pick(lex.SENTENCE_ADVERBIALS))
            else:
                sb.leaf("ADVP", rnd.pick(lex.ADVERBS_SENTENCE), "RB")
            sb.tok(",", ",")
        r = rnd.u()
        if r < 0.4:
            self.clause()
        elif r < 0.75:
            sub = rnd.pick(lex.SUBORDINATORS)
            sb.open("SBAR")
            sb.tok(sub, "IN", sub)
            sb.open("S")
            self.clause(depth=1)
            sb.close()
            sb.close()
            sb.tok(",", ",")
            self.clause()
        else:
            sb.open("S")
            self.clause()
            sb.close()
            sb.tok(",", ",")
            cc = rnd.pick(("and", "but"))
            sb.tok(cc, "CC", cc)
            sb.open("S")
            self.clause(depth=1)
            sb.close()
        if rnd.chance(0.45):  # ", citing the economy": participial adjunct, no mention
            sb.tok(",", ",")
            sb.open("S")
            sb.open("VP")
            verb = rnd.pick(tuple(lex.PARTICIPLES))
            sb.tok(verb, "VBG", lex.PARTICIPLES[verb])
            self.R.generic_np()
            sb.close()
            sb.close()
        sb.end_sentence()
        self._next_sentence()

    def clause(self, depth=0):
        """Subject NP + VP inside an open S."""
        if self.force_subject is not None:
            subj, self.force_subject = self.force_subject, None
            self.R.realise(subj, "subj", force="pronoun")
        else:
            last = self.last_subject
            if last is not None and self.sent - last.last_sent <= 1 and self.rnd.chance(self.k["topic_continuity"]):
                subj = last  # Centering: the previous subject stays the topic (and becomes "he")
            else:
                subj = self.pick()
            self.R.realise(subj, "subj")
        self.last_subject = subj
        if self.R.apposition_ended:  # "John Smith , a doctor , said": the closing comma
            self.sb.tok(",", ",")
        self.vp(subj, depth)

    def vp(self, subj, depth):
        sb, rnd, R = self.sb, self.rnd, self.R
        sb.open("VP")
        if rnd.chance(0.4):
            sb.leaf("ADVP", rnd.pick(lex.ADVERBS_VP), "RB")
        r = rnd.u()
        if subj.kind in ("person", "org"):
            if r < 0.55:
                obj = self.rival(subj) or self.pick(exclude=(subj,))
                verbs = {
                    "person": lex.VERBS_PERSON_OBJ,
                    "org": lex.VERBS_ORG_OBJ,
                    "place": lex.VERBS_PLACE_OBJ,
                    "object": lex.VERBS_OBJECT_OBJ,
                }[obj.kind]
                verb = rnd.pick(tuple(verbs))
                control = rnd.chance(0.25)
                if control:  # (VP decided (S (VP to (VP sign NP))))
                    cverb = rnd.pick(tuple(lex.CONTROL_VERBS))
                    sb.tok(cverb, "VBD", lex.CONTROL_VERBS[cverb])
                    sb.open("S")
                    sb.open("VP")
                    sb.tok("to", "TO", "to")
                    sb.open("VP")
                    sb.tok(verbs[verb], "VB", verbs[verb])
                else:
                    sb.tok(verb, "VBD", verbs[verb])
                self.object_np(obj, subj)
                if rnd.chance(0.4):
                    self.pp()
                if control:
                    sb.close()
                    sb.close()
                    sb.close()
            elif r < 0.72:
                verb = rnd.pick(tuple(lex.VERBS_INTRANS))
                sb.tok(verb, "VBD", lex.VERBS_INTRANS[verb])
                if rnd.chance(0.7):
                    self.pp()
            elif r < 0.8 and subj.kind == "person":
                plural = subj.number == "pl" or subj is R.addressee
                sb.tok("were" if plural else "was", "VBD", "be")
                sb.leaf("ADJP", rnd.pick(lex.ADJ_PREDICATIVE), "JJ")
            elif depth == 0:
                verb = rnd.pick(tuple(lex.VERBS_SAY))
                sb.tok(verb, "VBD", lex.VERBS_SAY[verb])
                sb.open("SBAR")
                sb.tok("that", "IN", "that")
                sb.open("S")
                self.clause(depth + 1)
                sb.close()
                sb.close()
            else:
                verb = rnd.pick(tuple(lex.VERBS_INTRANS))
                sb.tok(verb, "VBD", lex.VERBS_INTRANS[verb])
                self.pp()
        elif r < 0.45:
            verb = rnd.pick(tuple(lex.VERBS_INANIMATE_SUBJ))
            sb.tok(verb, "VBD", lex.VERBS_INANIMATE_SUBJ[verb])
            R.realise(self.pick(exclude=(subj,), kinds=("person", "org")), "obj")
        else:
            verb = rnd.pick(tuple(lex.VERBS_INTRANS_INANIMATE))
            sb.tok(verb, "VBD", lex.VERBS_INTRANS_INANIMATE[verb])
            if rnd.chance(0.6):
                self.pp()
        if depth == 0 and rnd.chance(0.6):
            R.pp_phrase(*rnd.pick(lex.TIME_PPS))
        sb.close()

    def rival(self, subj):
        """With probability `same_gender_rate`, a known person of the subject's gender as the
        object: "Smith met Jones. He ..." -- the nearest "he" candidate is not the topic."""
        if subj.kind != "person" or subj.number != "sg" or not self.rnd.chance(self.k["same_gender_rate"]):
            return None
        cands = [
            e
            for e in self.entities
            if e is not subj
            and e.kind == "person"
            and e.number == "sg"
            and e.gender == subj.gender
            and not e.once
            and e is not self.R.speaker
            and e is not self.R.addressee
        ]
        return self.rnd.weighted(cands, [e.sal + 0.1 for e in cands]) if cands else None

    def object_np(self, obj, subj):
        rnd, R, k = self.rnd, self.R, self.k
        if obj.kind == "object":
            if obj.mentions and rnd.chance(k["distractor_rate"] * 0.3):
                R.distractor_np(obj)
                return
            if rnd.chance(k["generic_np_rate"] * 0.3):
                R.generic_np()
                return
            if obj.mentions == 0 and rnd.chance(0.3):
                owner = self.pick(exclude=(obj,), kinds=("person", "org"))
                R.possessed_first(obj, owner)
                return
        R.realise(obj, "obj")

    def pp(self):
        sb, rnd, R = self.sb, self.rnd, self.R
        sb.open("PP")
        if rnd.chance(self.k["generic_np_rate"]):
            prep = rnd.pick(lex.GENERIC_PREPS)
            sb.tok(prep, "IN", prep)
            R.generic_np()
        else:
            r = rnd.u()
            kinds, prep = (
                (("place",), rnd.pick(("in", "at", "near")))
                if r < 0.15
                else (("person",), "with")
                if r < 0.6
                else (("object",), "about")
                if r < 0.85
                else (("org",), "for")
            )
            sb.tok(prep, "IN", prep)
            R.realise(self.pick(kinds=kinds), "obj")
        sb.close()

    def pleonastic(self):
        """Non-referential "it" as an NP constituent that is not a mention."""
        sb, rnd = self.sb, self.rnd
        sb.begin_sentence()
        sb.open("NP")
        sb.tok("It", "PRP", "it")
        sb.close()
        sb.open("VP")
        r = rnd.u()
        if r < 0.5:
            sb.tok("was", "VBD", "be")
            sb.leaf("ADJP", rnd.pick(lex.ADJ_PLEONASTIC), "JJ")
        elif r < 0.8:
            sb.tok("seemed", "VBD", "seem")
        if r < 0.8:
            sb.open("SBAR")
            sb.tok("that", "IN", "that")
            sb.open("S")
            self.clause(depth=1)
            sb.close()
            sb.close()
        else:
            sb.tok("rained", "VBD", "rain")
            sb.open("PP")
            sb.tok("in", "IN", "in")
            self.R.realise(self.pick(kinds=("place",)), "obj")
            sb.close()
        sb.close()
        sb.end_sentence()
        self._next_sentence()

    def nonlocal_case(self):
        """[B] met [the doctor]. [He] ...: "the doctor" is the nearest gender-compatible
        candidate of "He" only locally; its cluster is female by an earlier name."""
        people = [e for e in self.entities if e.kind == "person" and e.number == "sg" and not e.once and e.mentions]
        hidden = [e for e in people if e.desc_ambiguous and e.named]
        if not hidden:
            return False
        a = self.rnd.pick(hidden)
        others = [e for e in people if e.gender != a.gender]
        if not others:
            return False
        b = self.rnd.weighted(others, [e.sal + 0.1 for e in others])
        sb, R = self.sb, self.R
        sb.begin_sentence()
        R.realise(b, "subj", force="nominal" if b.desc_ambiguous and b.named and self.rnd.chance(0.3) else None)
        sb.open("VP")
        verb = self.rnd.pick(tuple(lex.VERBS_PERSON_OBJ))
        sb.tok(verb, "VBD", lex.VERBS_PERSON_OBJ[verb])
        R.realise(a, "obj", force="nominal")
        sb.close()
        sb.end_sentence()
        self._next_sentence()
        self.force_subject = b
        return True

    def quote(self):
        """'" I ... you ... , " Smith told Jones .' then possibly the reply, speakers swapped."""
        spk = self.pick_person()
        if spk is None:
            return False
        addr = self.pick_person(exclude=(spk,)) if self.rnd.chance(0.6) else None
        turns = 1 if addr is None else 1 + int(self.rnd.chance(0.6)) + int(self.rnd.chance(0.3))
        for t in range(turns):
            if t and self.sent >= self.n_sent:
                break
            self.quoted_sentence(spk, addr, t)
            if addr is not None:
                spk, addr = addr, spk
        return True

    def quoted_sentence(self, spk, addr, turn):
        sb, R, rnd = self.sb, self.R, self.rnd
        sb.begin_sentence()
        sb.speaker_now = "_".join(spk.name) if spk.name else "-"
        sb.tok("``", "``")
        R.speaker, R.addressee = spk, addr
        sb.open("S")
        self.speech_clause(spk, addr)
        sb.close()
        sb.tok(",", ",")
        sb.tok("''", "''")
        R.speaker = R.addressee = None
        sb.speaker_now = "-"
        R.realise(spk, "subj")
        if R.apposition_ended:
            sb.tok(",", ",")
        sb.open("VP")
        if addr is not None and turn == 0:
            verb = rnd.pick(tuple(lex.VERBS_TELL))
            sb.tok(verb, "VBD", lex.VERBS_TELL[verb])
            R.realise(addr, "obj")
        else:
            verb = "replied" if turn else rnd.pick(tuple(lex.VERBS_SAY))
            sb.tok(verb, "VBD", lex.VERBS_SAY[verb])
        sb.close()
        sb.end_sentence()
        self._next_sentence()

    def speech_clause(self, spk, addr):
        """A clause in the speaker's voice: "I trust you", "You know the report"."""
        sb, R, rnd = self.sb, self.R, self.rnd
        r = rnd.u()
        if r < 0.7 or addr is None and r < 0.8:
            subj = spk if r < 0.5 or addr is None else addr
            R.realise(subj, "subj")
            sb.open("VP")
            verb = rnd.pick(tuple(lex.VERBS_QUOTE))
            sb.tok(verb, "VBP", verb)
            other = spk if subj is addr else addr
            if other is not None and rnd.chance(0.4):
                R.realise(other, "obj")
            else:
                self.object_np(self.pick(exclude=(spk, addr)), subj)
            sb.close()
        else:
            self.clause(depth=1)

    def dialogue_turn(self):
        """Dialogue genres: each sentence is a turn; the speaker column names the speaker."""
        if self.sent and self.rnd.chance(0.5):
            self.speakers.reverse()
        spk, addr = self.speakers
        R, sb = self.R, self.sb
        R.speaker, R.addressee = spk, addr
        sb.speaker_now = "_".join(spk.name)
        r = self.rnd.u()
        if r < 0.35:
            sb.begin_sentence()
            self.speech_clause(spk, addr)
            sb.end_sentence()
            self._next_sentence()
        elif r < 0.4:
            self.pleonastic()
        else:
            self.plain()
        R.speaker = R.addressee = None
        sb.speaker_now = "-"
