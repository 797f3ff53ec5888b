"""Short runs of every leaderboard learner on the tiny synthetic corpus, shared by the command tests."""

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]

# every leaderboard learner with a short run: (learner, params, epochs the params ask for)
LEARNERS = [
    ("bk_baseline", '{"n_iter": 2}', 2),
    ("bk_delayed_laso", '{"n_iter": 2, "beam": 4}', 2),
    ("cc_base", "{}", 1),  # no E-step: one M-step
    ("cc_slt_closest", '{"em_iterations": 2, "max_iter": 50}', 2),
    ("l3m", '{"epochs": 2}', 2),
    ("sumlink", '{"epochs": 2}', 2),
    ("binleftlink", '{"epochs": 2}', 2),
    ("spanning_forest", '{"epochs": 2}', 2),
    (
        "corr_clustering",
        '{"epochs": 2, "max_items": 15, "node_limit": 50}',
        2,
    ),  # exact search budget of the configs (defaults: 140 s here)
]
