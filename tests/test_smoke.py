def test_a_cohort_turn_with_entered_faces_resolves_one_die_per_success(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,6,2,3,4")
    guards = table.json("status")["challenges"][0]
    assert (guards["resolved"], guards["phase"]) == (2, "challenge")
