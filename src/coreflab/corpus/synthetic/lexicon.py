"""Word lists of the synthetic corpus generator (invented for coreflab; no licence strings).

Names are common English given names and surnames; nominal descriptors are split into
gender-ambiguous ("doctor") and gendered ("actress") heads, because the non-local
phenomenon of the generator needs descriptors whose gender only an earlier name in the
same cluster reveals. Verbs carry (past tense, lemma); nouns (singular, plural).
"""

MALE_FIRST = (
    "James John Robert Michael William David Richard Joseph Thomas Charles Daniel Matthew "
    "Anthony Mark Paul Steven Andrew Kenneth Joshua Kevin Brian George Edward Ronald Timothy "
    "Jason Jeffrey Ryan Jacob Gary Nicholas Eric Jonathan Stephen Larry Justin Scott Frank "
    "Peter Samuel Gregory Henry Patrick Walter Arthur Victor Martin Oliver Hugo Felix"
).split()

FEMALE_FIRST = (
    "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Nancy Lisa "
    "Margaret Betty Sandra Ashley Dorothy Kimberly Emily Donna Michelle Carol Amanda Melissa "
    "Deborah Stephanie Rebecca Laura Sharon Cynthia Kathleen Amy Shirley Angela Helen Anna "
    "Brenda Pamela Nicole Emma Samantha Katherine Christine Rachel Carolyn Janet Maria Olivia "
    "Sophie Clara Irene Julia"
).split()

SURNAMES = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
    "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
    "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
    "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter "
    "Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris "
    "Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard "
    "Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood Bennett Gray Mendoza Ruiz Hughes"
).split()

# (singular, plural) person descriptors whose gender the word does not reveal.
AMBIGUOUS_DESCRIPTORS = tuple(
    (w, w + "s")
    for w in (
        "doctor lawyer teacher manager engineer director nurse officer reporter senator "
        "scientist analyst pilot judge professor president minister official architect editor "
        "coach player student agent author artist banker farmer detective surgeon economist "
        "spokesperson chairman treasurer pianist chemist researcher consultant"
    ).split()
)
MALE_DESCRIPTORS = (
    ("man", "men"),
    ("actor", "actors"),
    ("father", "fathers"),
    ("businessman", "businessmen"),
    ("king", "kings"),
    ("husband", "husbands"),
)
FEMALE_DESCRIPTORS = (
    ("woman", "women"),
    ("actress", "actresses"),
    ("mother", "mothers"),
    ("businesswoman", "businesswomen"),
    ("queen", "queens"),
    ("wife", "wives"),
)

# Groups of people (plural person entities without names).
GROUP_DESCRIPTORS = (
    "workers",
    "engineers",
    "residents",
    "students",
    "officials",
    "investors",
    "voters",
    "doctors",
    "farmers",
    "protesters",
    "players",
    "researchers",
)

ORG_FIRST = (
    "Acme Northwind Bluewater Pinecrest Summit Redwood Harbor Silverline Granite Meridian "
    "Evergreen Crescent Keystone Atlas Horizon Sterling Beacon Liberty Pioneer Orion Cobalt "
    "Falcon Vertex Lakeside Ironwood"
).split()
ORG_SECOND = ("Corp.", "Inc.", "Group", "Bank", "Airlines", "Motors", "Holdings", "Partners", "Energy", "Systems")
# org second word -> nominal descriptor head (singular)
ORG_DESCRIPTOR = {
    "Corp.": "company",
    "Inc.": "company",
    "Group": "group",
    "Bank": "bank",
    "Airlines": "airline",
    "Motors": "automaker",
    "Holdings": "company",
    "Partners": "firm",
    "Energy": "company",
    "Systems": "firm",
}

CITIES = (
    "Boston Chicago Denver Houston Seattle Atlanta Dallas Portland Phoenix Detroit Memphis Miami "
    "Baltimore Oakland Tucson Omaha Cleveland Pittsburgh Richmond Sacramento"
).split()
COUNTRIES = "France Germany Japan Brazil Canada Mexico Italy Spain Kenya Egypt India Chile".split()

# Inanimate objects: (singular, plural) heads; optional modifiers.
OBJECTS = (
    ("contract", "contracts"),
    ("report", "reports"),
    ("plan", "plans"),
    ("letter", "letters"),
    ("proposal", "proposals"),
    ("agreement", "agreements"),
    ("bill", "bills"),
    ("car", "cars"),
    ("book", "books"),
    ("painting", "paintings"),
    ("house", "houses"),
    ("deal", "deals"),
    ("budget", "budgets"),
    ("study", "studies"),
    ("statement", "statements"),
    ("loan", "loans"),
    ("project", "projects"),
    ("policy", "policies"),
    ("document", "documents"),
    ("film", "films"),
)
OBJECT_MODIFIERS = "new old annual final secret first controversial original second draft".split()
PERSON_MODIFIERS = "young senior local former veteran famous retired new chief".split()

# Verbs: past tense -> lemma, grouped by the kind of object they take.
VERBS_PERSON_OBJ = {
    "met": "meet",
    "called": "call",
    "praised": "praise",
    "criticized": "criticize",
    "hired": "hire",
    "thanked": "thank",
    "interviewed": "interview",
    "warned": "warn",
    "supported": "support",
    "visited": "visit",
    "contacted": "contact",
    "blamed": "blame",
    "invited": "invite",
    "joined": "join",
}
VERBS_ORG_OBJ = {
    "joined": "join",
    "left": "leave",
    "sued": "sue",
    "contacted": "contact",
    "praised": "praise",
    "criticized": "criticize",
    "visited": "visit",
    "supported": "support",
    "advised": "advise",
}
VERBS_PLACE_OBJ = {"visited": "visit", "left": "leave", "toured": "tour", "reached": "reach", "described": "describe"}
VERBS_OBJECT_OBJ = {
    "signed": "sign",
    "read": "read",
    "reviewed": "review",
    "rejected": "reject",
    "released": "release",
    "approved": "approve",
    "prepared": "prepare",
    "discussed": "discuss",
    "sent": "send",
    "defended": "defend",
    "bought": "buy",
    "sold": "sell",
    "revised": "revise",
    "published": "publish",
}
VERBS_INANIMATE_SUBJ = {
    "mentioned": "mention",
    "described": "describe",
    "affected": "affect",
    "surprised": "surprise",
    "worried": "worry",
}
VERBS_INTRANS = {
    "arrived": "arrive",
    "resigned": "resign",
    "spoke": "speak",
    "waited": "wait",
    "returned": "return",
    "agreed": "agree",
    "declined": "decline",
    "complained": "complain",
    "testified": "testify",
    "succeeded": "succeed",
}
VERBS_INTRANS_INANIMATE = {
    "changed": "change",
    "failed": "fail",
    "remained": "remain",
    "collapsed": "collapse",
    "improved": "improve",
}
VERBS_SAY = {
    "said": "say",
    "added": "add",
    "explained": "explain",
    "insisted": "insist",
    "replied": "reply",
    "noted": "note",
}
VERBS_TELL = {"told": "tell", "assured": "assure", "reminded": "remind", "warned": "warn"}
# Present-tense verbs for quoted speech (first/second person subject): base form, VBP.
VERBS_QUOTE = {
    "trust": "trust",
    "need": "need",
    "like": "like",
    "remember": "remember",
    "support": "support",
    "know": "know",
    "doubt": "doubt",
    "respect": "respect",
}
ADJ_PLEONASTIC = "clear likely possible obvious true unlikely important surprising".split()
ADJ_PREDICATIVE = "tired happy worried angry confident optimistic busy disappointed".split()
SUBORDINATORS = ("after", "before", "when", "because", "although", "while")

# Generic noun phrases that never refer to an entity of the document (not mentions):
# (tokens, POS tags, NE label or None)
GENERIC_NPS = (
    (("the", "economy"), ("DT", "NN"), None),
    (("people",), ("NNS",), None),
    (("many", "questions"), ("JJ", "NNS"), None),
    (("the", "public"), ("DT", "NN"), None),
    (("a", "long", "time"), ("DT", "JJ", "NN"), None),
    (("the", "situation"), ("DT", "NN"), None),
    (("some", "problems"), ("DT", "NNS"), None),
    (("the", "future"), ("DT", "NN"), None),
    (("a", "new", "approach"), ("DT", "JJ", "NN"), None),
    (("the", "market"), ("DT", "NN"), None),
    (("several", "reasons"), ("JJ", "NNS"), None),
    (("the", "details"), ("DT", "NNS"), None),
    (("last", "year"), ("JJ", "NN"), "DATE"),
    (("two", "weeks"), ("CD", "NNS"), "DATE"),
    (("the", "morning"), ("DT", "NN"), "TIME"),
    (("three", "days"), ("CD", "NNS"), "DATE"),
    (("2004",), ("CD",), "DATE"),
    (("five", "million", "dollars"), ("CD", "CD", "NNS"), "MONEY"),
)

GENERIC_PREPS = ("about", "during", "after", "despite", "for", "over")

PRONOUNS = {
    # (gender, number) -> (subject, object, possessive)
    ("m", "sg"): ("he", "him", "his"),
    ("f", "sg"): ("she", "her", "her"),
    ("n", "sg"): ("it", "it", "its"),
    ("m", "pl"): ("they", "them", "their"),
    ("f", "pl"): ("they", "them", "their"),
    ("n", "pl"): ("they", "them", "their"),
}
FIRST_PERSON = ("I", "me", "my")
SECOND_PERSON = ("you", "you", "your")

# Non-referential padding that makes sentences as long as newswire (~17 tokens):
# sentence adverbials, VP adverbs, temporal PPs, "of" heads of generic NPs, control verbs.
SENTENCE_ADVERBIALS = (
    (("On", "Monday"), ("IN", "NNP"), "DATE"),
    (("On", "Friday"), ("IN", "NNP"), "DATE"),
    (("In", "recent", "years"), ("IN", "JJ", "NNS"), "DATE"),
    (("In", "the", "meantime"), ("IN", "DT", "NN"), None),
    (("At", "the", "time"), ("IN", "DT", "NN"), None),
    (("Within", "a", "few", "months"), ("IN", "DT", "JJ", "NNS"), "DATE"),
    (("After", "the", "meeting"), ("IN", "DT", "NN"), None),
    (("According", "to", "the", "media"), ("VBG", "TO", "DT", "NNS"), None),
)
PARTICIPLES = {"citing": "cite", "noting": "note", "following": "follow", "ignoring": "ignore", "stressing": "stress"}
ADVERBS_SENTENCE = ("Meanwhile", "However", "Later", "Still", "Yesterday", "Moreover")
ADVERBS_VP = ("also", "recently", "later", "again", "quickly", "finally", "reportedly", "already")
TIME_PPS = (
    (("on", "Tuesday"), ("IN", "NNP"), "DATE"),
    (("in", "2004"), ("IN", "CD"), "DATE"),
    (("in", "the", "spring"), ("IN", "DT", "NN"), "DATE"),
    (("after", "the", "election"), ("IN", "DT", "NN"), None),
    (("during", "the", "week"), ("IN", "DT", "NN"), "DATE"),
    (("for", "several", "hours"), ("IN", "JJ", "NNS"), "TIME"),
    (("before", "the", "deadline"), ("IN", "DT", "NN"), None),
    (("at", "the", "end", "of", "the", "year"), ("IN", "DT", "NN", "IN", "DT", "NN"), None),
)
OF_HEADS = (
    ("the", "price"),
    ("a", "number"),
    ("the", "rest"),
    ("the", "cost"),
    ("the", "impact"),
    ("the", "role"),
    ("the", "size"),
)
CONTROL_VERBS = {
    "decided": "decide",
    "tried": "try",
    "refused": "refuse",
    "planned": "plan",
    "wanted": "want",
    "agreed": "agree",
    "hoped": "hope",
}

# Alternative heads for later definite descriptions ("the firm" for "the company"):
# coreferent nominals that head matching cannot link, as in real text.
SYNONYMS = {
    "doctor": "physician",
    "lawyer": "attorney",
    "reporter": "journalist",
    "teacher": "instructor",
    "manager": "executive",
    "official": "administrator",
    "professor": "academic",
    "senator": "lawmaker",
    "scientist": "researcher",
    "author": "writer",
    "detective": "investigator",
    "coach": "trainer",
    "man": "gentleman",
    "woman": "lady",
    "company": "firm",
    "firm": "company",
    "bank": "lender",
    "automaker": "carmaker",
    "airline": "carrier",
    "group": "organization",
    "city": "town",
    "country": "nation",
    "car": "vehicle",
    "film": "movie",
    "book": "novel",
    "house": "home",
    "contract": "deal",
    "deal": "transaction",
    "plan": "scheme",
    "letter": "note",
    "report": "document",
    "bill": "legislation",
    "painting": "picture",
    "loan": "credit",
    "project": "venture",
    "proposal": "offer",
    "statement": "declaration",
    "study": "survey",
    "budget": "spending",
    "workers": "employees",
    "residents": "locals",
    "investors": "shareholders",
    "voters": "citizens",
}
