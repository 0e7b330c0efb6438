#!/usr/bin/python3
"""Writes the bad-input corpus (tests/bad_inputs/README.md) from the hand-written table of cases below.

Every case is one deliberate mistake on an otherwise valid input, so the error it must produce is the one
the case is named after. The committed files are the corpus; this script only spares writing 300 near-
identical JSON files by hand. Run it with /usr/bin/python3 from anywhere; it rewrites sweep/, run/, set/
args/ and files/ completely (files of removed cases disappear).
"""
import copy
import json
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent
DELETE = object()  # as a value in edit(): remove the key


def edit(base, changes):
    """A deep copy of base with changes applied; keys are paths like "problems/0/overrides"."""
    out = copy.deepcopy(base)
    for path, value in changes.items():
        *parents, last = path.split("/")
        node = out
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is DELETE:
            del node[last]
        else:
            node[last] = value
    return out


def nested(depth, inner="1", open_="[", close="]"):
    return open_ * depth + inner + close * depth


# ---------------------------------------------------------------------------------------------------
# Sweep configs: `gibench sweep FILE --out OUT`. Each base is a valid one-cell sweep.

FRB = {"problems": [{"problem": "free_rigid_body", "presets": ["kjer2017"]}], "methods": ["rkmk4"], "h": [0.1], "T": 1}
PARTICLES = {"problems": [{"problem": "dipolar_spheres", "presets": ["kjer2017_2d_n2"]}], "methods": ["rkmk4"],
             "h": [0.01], "T": 0.01, "observe": {"reference": False}}
NEWTON = {"problems": [{"problem": "double_pendulum"}], "methods": ["zs"], "h": [0.01], "T": 0.01}


def frb(**changes):
    return edit(FRB, {k.replace("__", "/"): v for k, v in changes.items()})


def frb_override(params):
    return edit(FRB, {"problems/0/overrides": [params]})


def problem_override(problem, params, method="rkmk4", preset=None, h=0.01, T=0.01):
    entry = {"problem": problem, "overrides": [params]}
    if preset:
        entry["presets"] = [preset]
    return {"problems": [entry], "methods": [method], "h": [h], "T": T, "observe": {"reference": False}}


def particles(params):
    return edit(PARTICLES, {"problems/0/overrides": [params]})


def method_params(method, params, problem="free_rigid_body"):
    return edit(FRB, {"problems/0": {"problem": problem}, "methods": [{"id": method, "params": params}]})


def pair(method, problem, preset=None):
    entry = {"problem": problem}
    if preset:
        entry["presets"] = [preset]
    return {"problems": [entry], "methods": [method], "h": [0.01], "T": 0.01, "observe": {"reference": False}}


# Raw text for what json.dumps cannot write: duplicated keys, bad syntax, bad bytes.
SW = '"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"]'
VALID = '{' + SW + ', "h": [0.1], "T": 1}'

SWEEP = {
    # --- empty, whitespace, syntax
    "empty": b"",
    "whitespace_only": b"  \n\t \r\n   \n",
    "single_newline": b"\n",
    "truncated_after_bracket": b'{"problems": [',
    "truncated_in_string": b'{"problems": [{"problem": "free_rig',
    "truncated_after_key": b'{"problems"',
    "truncated_in_number": b'{' + SW.encode() + b', "h": [0.',
    "missing_final_brace": VALID[:-1].encode(),
    "trailing_comma_array": ('{' + SW + ', "h": [0.1, 0.05,], "T": 1}').encode(),
    "trailing_comma_object": ('{' + SW + ', "h": [0.1], "T": 1,}').encode(),
    "single_quotes": b"{'problems': [{'problem': 'free_rigid_body'}], 'methods': ['rkmk4'], 'h': [0.1], 'T': 1}",
    "line_comment": ('// a sweep\n' + VALID).encode(),
    "block_comment": ('{/* h below */ ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "unquoted_key": ('{' + SW + ', h: [0.1], "T": 1}').encode(),
    "two_documents": (VALID + "\n" + VALID).encode(),
    "trailing_garbage": (VALID + " x").encode(),
    "missing_colon": ('{' + SW + ', "h" [0.1], "T": 1}').encode(),
    "missing_comma": ('{' + SW + ', "h": [0.1] "T": 1}').encode(),
    "unterminated_string_at_eof": b'{"name": "abc',
    "raw_newline_in_string": ('{"name": "two\nlines", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "raw_tab_in_string": ('{"name": "a\tb", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "bad_escape": ('{"name": "a\\qb", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "short_unicode_escape": ('{"name": "\\u12", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "lone_high_surrogate_escape": ('{"name": "\\ud800", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "lone_low_surrogate_escape": ('{"name": "\\udc00x", ' + SW + ', "h": [0.1], "T": 1}').encode(),
    "top_level_array": json.dumps([FRB]).encode(),
    "top_level_string": b'"free_rigid_body"',
    "top_level_number": b"42",
    "top_level_null": b"null",
    "top_level_true": b"true",
    "empty_object": b"{}",
    # --- duplicated keys, top level and nested
    "dup_h": ('{' + SW + ', "h": [0.1], "h": [0.05], "T": 1}').encode(),
    "dup_T_same_value": ('{' + SW + ', "h": [0.1], "T": 1, "T": 1}').encode(),
    "dup_problems": ('{"problems": [{"problem": "free_rigid_body"}], "problems": [{"problem": "lagrange_top"}], '
                     '"methods": ["rkmk4"], "h": [0.1], "T": 1}').encode(),
    "dup_methods": ('{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], "methods": ["rkmk2"], '
                    '"h": [0.1], "T": 1}').encode(),
    "dup_problem_id": ('{"problems": [{"problem": "free_rigid_body", "problem": "lagrange_top"}], '
                       '"methods": ["rkmk4"], "h": [0.1], "T": 1}').encode(),
    "dup_override_inertia": ('{"problems": [{"problem": "free_rigid_body", "overrides": [{}, '
                             '{"inertia": [1, 2, 3], "inertia": [3, 2, 1]}]}], "methods": ["rkmk4"], '
                             '"h": [0.1], "T": 1}').encode(),
    "dup_method_id": ('{"problems": [{"problem": "free_rigid_body"}], '
                      '"methods": [{"id": "rkmk4", "id": "rkmk2"}], "h": [0.1], "T": 1}').encode(),
    "dup_method_param": ('{"problems": [{"problem": "free_rigid_body"}], "methods": '
                         '[{"id": "rkmk4", "params": {"truncation": 0, "truncation": "thesis"}}], '
                         '"h": [0.1], "T": 1}').encode(),
    "dup_observe_key": ('{' + SW + ', "h": [0.1], "T": 1, '
                        '"observe": {"ref_samples": 10, "ref_samples": 20}}').encode(),
    "dup_h_range_key": ('{' + SW + ', "h": {"start": 0.5, "start": 0.25, "count": 2}, "T": 1}').encode(),
    "dup_fit_key": ('{' + SW + ', "h": [0.1], "T": 1, "fit": {"floor": 1e-12, "floor": 1e-10}}').encode(),
    "dup_key_in_unknown_key": ('{' + SW + ', "h": [0.1], "T": 1, "x": {"a": 1, "a": 1}}').encode(),
    "dup_key_equal_after_unescape": ('{' + SW + ', "h": [0.1], "\\u0068": [0.2], "T": 1}').encode(),
    # --- bytes that are not UTF-8, byte order marks, other encodings
    "invalid_byte_in_problem_id": b'{"problems": [{"problem": "free_rigid_body\xff"}], "methods": ["rkmk4"], '
                                  b'"h": [0.1], "T": 1}',
    "invalid_byte_in_key": ('{' + SW + ', "h\udcff": [0.1], "T": 1}').encode("utf-8", "surrogateescape"),
    "latin1_in_name": b'{"name": "d\xe9j\xe0 vu", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "overlong_utf8_slash": b'{"name": "\xc0\xaf", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "utf8_encoded_surrogate": b'{"name": "\xed\xa0\x80", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "truncated_utf8_sequence": b'{"name": "\xe2\x82", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "utf8_beyond_u10ffff": b'{"name": "\xf4\x90\x80\x80", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "invalid_byte_outside_strings": ('{' + SW + ', "h": [0.1], "T": 1}').encode()[:-1] + b"\xff}",
    "nul_byte_between_tokens": ('{' + SW + ', "h": [0.1],').encode() + b"\x00" + b' "T": 1}',
    "control_byte_in_string": b'{"name": "a\x01b", ' + SW.encode() + b', "h": [0.1], "T": 1}',
    "utf16le_with_bom": b"\xff\xfe" + VALID.encode("utf-16-le"),
    "utf16be_with_bom": b"\xfe\xff" + VALID.encode("utf-16-be"),
    "utf16le_without_bom": VALID.encode("utf-16-le"),
    "utf32le_with_bom": b"\xff\xfe\x00\x00" + VALID.encode("utf-32-le"),
    "utf8_bom_twice": b"\xef\xbb\xbf\xef\xbb\xbf" + VALID.encode(),
    "utf8_bom_after_whitespace": b" \xef\xbb\xbf" + VALID.encode(),
    "utf8_bom_at_end": VALID.encode() + b"\xef\xbb\xbf",
    "bom_glued_to_key": ('{' + SW + ', "\ufeffh": [0.1], "T": 1}').encode(),
    "escaped_nul_in_problem_id": b'{"problems": [{"problem": "free_rigid_body\\u0000"}], "methods": ["rkmk4"], '
                                 b'"h": [0.1], "T": 1}',
    "zero_width_space_in_method": '{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk\u200b4"], '
                                  '"h": [0.1], "T": 1}'.encode(),
    "fullwidth_digits_in_h": '{"problems": [{"problem": "free_rigid_body"}], "methods": ["rkmk4"], '
                             '"h": [\uff10.1], "T": 1}'.encode(),
    # --- nesting
    "nested_arrays_100_in_h": ('{' + SW + ', "h": ' + nested(100, "0.1") + ', "T": 1}').encode(),
    "nested_objects_65_in_overrides": ('{"problems": [{"problem": "free_rigid_body", "overrides": [' +
                                       nested(65, "1", '{"a": ', "}") + ']}], "methods": ["rkmk4"], '
                                       '"h": [0.1], "T": 1}').encode(),
    "nested_in_unknown_key": ('{' + SW + ', "h": [0.1], "T": 1, "notes": ' + nested(200, "0") + '}').encode(),
    "unterminated_brackets_100000": b"[" * 100000,
    "nested_method_params": ('{"problems": [{"problem": "free_rigid_body"}], "methods": [{"id": "rkmk4", '
                             '"params": {"truncation": ' + nested(80, "1") + '}}], "h": [0.1], "T": 1}').encode(),
    # --- numbers: NaN and Inf, overflow, non-JSON number syntax
    "h_nan_bare": ('{' + SW + ', "h": [NaN], "T": 1}').encode(),
    "h_infinity_bare": ('{' + SW + ', "h": [Infinity], "T": 1}').encode(),
    "T_minus_infinity_bare": ('{' + SW + ', "h": [0.1], "T": -Infinity}').encode(),
    "h_nan_lowercase": ('{' + SW + ', "h": [nan], "T": 1}').encode(),
    "h_1e999": ('{' + SW + ', "h": [1e999], "T": 1}').encode(),
    "h_minus_1e999": ('{' + SW + ', "h": [-1e999], "T": 1}').encode(),
    "T_1e999": ('{' + SW + ', "h": [0.1], "T": 1e999}').encode(),
    "h_underflows_to_zero": ('{' + SW + ', "h": [1e-400], "T": 1}').encode(),
    "h_hex": ('{' + SW + ', "h": [0x1], "T": 1}').encode(),
    "h_leading_plus": ('{' + SW + ', "h": [+0.1], "T": 1}').encode(),
    "h_leading_dot": ('{' + SW + ', "h": [.1], "T": 1}').encode(),
    "h_trailing_dot": ('{' + SW + ', "h": [1.], "T": 1}').encode(),
    "T_leading_zero": ('{' + SW + ', "h": [0.1], "T": 01}').encode(),
    "h_as_string_nan": frb(h=["NaN"]),
    "inertia_1e999": ('{"problems": [{"problem": "free_rigid_body", "overrides": [{"inertia": [1, 1e999, 1]}]}], '
                      '"methods": ["rkmk4"], "h": [0.1], "T": 1}').encode(),
    "T_tiny_step_count_overflow": frb(h=[1e-300], T=1),
    "steps_1e30": frb(T=DELETE, steps=1e30),
    "steps_2_point_5": frb(T=DELETE, steps=2.5),
    "steps_above_int64": ('{' + SW + ', "h": [0.1], "steps": 9223372036854775808}').encode(),
    "h_range_count_1e30": frb(h={"start": 0.1, "factor": 0.5, "count": 1e30}),
    "N_1e30": frb(h=DELETE, N=[1e30]),
    "observe_ref_samples_1e30": frb(observe={"ref_samples": 1e30}),
    "timing_reps_2_point_5": frb(timing={"reps": 2.5}),
    # --- h, T, steps, N
    "h_zero": frb(h=[0]),
    "h_negative": frb(h=[-0.1]),
    "h_second_zero": frb(h=[0.1, 0]),
    "h_empty_list": frb(h=[]),
    "h_string": frb(h="0.1"),
    "h_list_of_strings": frb(h=["0.1"]),
    "h_null": frb(h=None),
    "h_bool": frb(h=True),
    "h_object_empty": frb(h={}),
    "h_range_count_zero": frb(h={"start": 0.5, "factor": 0.5, "count": 0}),
    "h_range_count_65": frb(h={"start": 0.5, "factor": 0.5, "count": 65}),
    "h_range_factor_negative": frb(h={"start": 0.5, "factor": -0.5, "count": 3}),
    "h_range_start_zero": frb(h={"start": 0, "factor": 0.5, "count": 3}),
    "h_range_unknown_key": frb(h={"start": 0.5, "factor": 0.5, "count": 3, "stop": 0.1}),
    "h_range_count_string": frb(h={"start": 0.5, "factor": 0.5, "count": "3"}),
    "h_range_start_string": frb(h={"start": "0.5", "factor": 0.5, "count": 3}),
    "h_range_count_fraction": frb(h={"start": 0.5, "factor": 0.5, "count": 2.5}),
    "missing_h": frb(h=DELETE),
    "T_zero": frb(T=0),
    "T_negative": frb(T=-1),
    "T_second_negative": frb(T=[1, -1]),
    "T_not_whole_steps": frb(h=[0.3], T=1),
    "T_string": frb(T="1"),
    "T_empty_list": frb(T=[]),
    "T_bool": frb(T=True),
    "T_and_steps": frb(steps=10),
    "neither_T_nor_steps": frb(T=DELETE),
    "steps_zero": frb(T=DELETE, steps=0),
    "steps_negative": frb(T=DELETE, steps=-10),
    "steps_second_zero": frb(T=DELETE, steps=[10, 0]),
    "steps_string": frb(T=DELETE, steps="10"),
    "N_zero": frb(h=DELETE, N=[0]),
    "N_negative": frb(h=DELETE, N=[20, -5]),
    "N_scalar_zero": frb(h=DELETE, N=0),
    "N_above_1e12": frb(h=DELETE, N=[2e12]),
    "N_with_h": frb(N=[20]),
    "N_without_T": frb(h=DELETE, T=DELETE, N=[20]),
    "N_with_steps": frb(h=DELETE, T=DELETE, N=[20], steps=10),
    "N_empty_list": frb(h=DELETE, N=[]),
    "N_strings": frb(h=DELETE, N=["20"]),
    "N_range_count_zero": frb(h=DELETE, N={"start": 20, "factor": 2, "count": 0}),
    "N_range_factor_zero": frb(h=DELETE, N={"start": 20, "factor": 0, "count": 3}),
    # --- huge sizes: more than 1,000,000 cells, huge parameter arrays
    "cells_h_times_T": frb(h=[1.0 / (i + 1) for i in range(1001)], T=list(range(1, 1001))),
    "cells_methods_times_h": frb(methods=["rkmk4"] * 1001, h=[1.0 / (i + 1) for i in range(1000)]),
    "cells_overrides_times_ics": frb(problems=[{"problem": "free_rigid_body", "overrides": [{}] * 1000,
                                                "ics": ["random:%d" % (i + 1) for i in range(1001)]}]),
    "cells_N_times_T": frb(h=DELETE, N={"start": 20, "factor": 1.1, "count": 64}, T=[1] * 15626),
    "cells_methods_times_problem_entries": frb(methods=["rkmk4"] * 1000, problems=[{"problem": "free_rigid_body"}] * 1001),
    "inertia_100000_entries": frb_override({"inertia": [1] * 100000}),
    "Pi0_100000_entries": frb_override({"Pi0": [1] * 100000}),
    # --- problems: unknown ids, wrong types, unknown keys
    "missing_problems": frb(problems=DELETE),
    "problems_empty": frb(problems=[]),
    "problems_object": frb(problems={"problem": "free_rigid_body"}),
    "problems_string": frb(problems="free_rigid_body"),
    "problems_entry_string": frb(problems=["free_rigid_body"]),
    "problems_entry_without_id": frb(problems=[{"presets": ["kjer2017"]}]),
    "problem_id_number": frb(problems=[{"problem": 42}]),
    "problem_id_null": frb(problems=[{"problem": None}]),
    "problem_unknown": frb(problems=[{"problem": "free_rigid_bod"}]),
    "problem_trailing_space": frb(problems=[{"problem": "free_rigid_body "}]),
    "problem_uppercase": frb(problems=[{"problem": "Free_Rigid_Body"}]),
    "problem_empty_id": frb(problems=[{"problem": ""}]),
    "problem_entry_unknown_key": frb(problems=[{"problem": "free_rigid_body", "preset": "kjer2017"}]),
    "problem_entry_override_singular": frb(problems=[{"problem": "free_rigid_body", "override": [{}]}]),
    "preset_unknown": frb(problems=[{"problem": "free_rigid_body", "presets": ["kjer2018"]}]),
    "preset_of_other_problem": frb(problems=[{"problem": "free_rigid_body", "presets": ["slow"]}]),
    "presets_empty": frb(problems=[{"problem": "free_rigid_body", "presets": []}]),
    "presets_number": frb(problems=[{"problem": "free_rigid_body", "presets": 5}]),
    "presets_null_entry": frb(problems=[{"problem": "free_rigid_body", "presets": [None]}]),
    "overrides_empty_list": frb(problems=[{"problem": "free_rigid_body", "overrides": []}]),
    "overrides_object": frb(problems=[{"problem": "free_rigid_body", "overrides": {"inertia": [1, 2, 3]}}]),
    "overrides_entry_number": frb(problems=[{"problem": "free_rigid_body", "overrides": [5]}]),
    "overrides_entry_list": frb(problems=[{"problem": "free_rigid_body", "overrides": [["inertia", [1, 2, 3]]]}]),
    "override_unknown_parameter": frb_override({"mass": 3}),
    "override_key_case": frb_override({"Inertia": [1, 2, 3]}),
    "ic_unknown": frb(problems=[{"problem": "free_rigid_body", "ics": ["random"]}]),
    "ic_random_negative": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:-1"]}]),
    "ic_random_zero": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:0"]}]),
    "ic_random_empty": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:"]}]),
    "ic_random_word": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:abc"]}]),
    "ic_random_overflow": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:99999999999999999999"]}]),
    "ic_random_fraction": frb(problems=[{"problem": "free_rigid_body", "ics": ["random:1.5"]}]),
    "ics_empty": frb(problems=[{"problem": "free_rigid_body", "ics": []}]),
    "ics_number": frb(problems=[{"problem": "free_rigid_body", "ics": [1]}]),
    # --- free rigid body parameters
    "inertia_zero": frb_override({"inertia": [1, 0, 1]}),
    "inertia_negative": frb_override({"inertia": [1, -2, 3]}),
    "inertia_all_zero": frb_override({"inertia": [0, 0, 0]}),
    "inertia_two_entries": frb_override({"inertia": [1, 2]}),
    "inertia_four_entries": frb_override({"inertia": [1, 2, 3, 4]}),
    "inertia_empty": frb_override({"inertia": []}),
    "inertia_scalar": frb_override({"inertia": 1}),
    "inertia_strings": frb_override({"inertia": ["1", "2", "3"]}),
    "inertia_nested": frb_override({"inertia": [[1, 2, 3]]}),
    "inertia_null_entry": frb_override({"inertia": [1, None, 3]}),
    "inertia_object": frb_override({"inertia": {"I1": 1, "I2": 2, "I3": 3}}),
    "Pi0_two_entries": frb_override({"Pi0": [1, 2]}),
    "Pi0_string": frb_override({"Pi0": "up"}),
    "Pi0_and_Omega0": frb_override({"Pi0": [1, 0, 0], "Omega0": [1, 0, 0]}),
    "Pi0_and_seed": frb_override({"Pi0": [1, 0, 0], "seed": 3}),
    "R0_not_rotation": frb_override({"R0": [1, 0, 0, 0, 1, 0, 0, 0, 2]}),
    "R0_reflection": frb_override({"R0": [1, 0, 0, 0, 1, 0, 0, 0, -1]}),
    "R0_eight_entries": frb_override({"R0": [1, 0, 0, 0, 1, 0, 0, 0]}),
    "R0_3x3_nested": frb_override({"R0": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}),
    "seed_negative": frb_override({"seed": -1}),
    "seed_fraction": frb_override({"seed": 1.5}),
    "seed_string": frb_override({"seed": "42"}),
    # --- the other problems' parameters
    "lagrange_inertia_triangle": problem_override("lagrange_top", {"inertia": [1, 1, 5]}),
    "lagrange_weight_string": problem_override("lagrange_top", {"weight": "heavy"}),
    "lagrange_psi0_two_entries": problem_override("lagrange_top", {"psi0": [0.1, 0]}),
    "coulomb_offset_below_one": problem_override("coulomb_wall", {"offset": 0.5}),
    "coulomb_eps_negative": problem_override("coulomb_wall", {"eps": -0.001}),
    "coulomb_unknown_preset": problem_override("coulomb_wall", {}, preset="flipped2"),
    "magnetized_Bmu_string": problem_override("magnetized_body", {"Bmu": "1"}),
    "magnetized_inertia_not_a_parameter": problem_override("magnetized_body", {"inertia": [1, 1, 1]}),
    "dipolar_N_zero": particles({"N": 0}),
    "dipolar_N_one": particles({"N": 1}),
    "dipolar_N_negative": particles({"N": -3}),
    "dipolar_N_fraction": particles({"N": 2.5}),
    "dipolar_N_1e30": particles({"N": 1e30}),
    "dipolar_N_string": particles({"N": "10"}),
    "dipolar_N_above_cap": particles({"N": 10000001}),
    "dipolar_N_list": particles({"N": [10]}),
    "dipolar_mass_zero": particles({"mass": 0}),
    "dipolar_inertia_zero": particles({"inertia": [1, 0, 1]}),
    "dipolar_mu_bar_two_entries": particles({"mu_bar": [0, 1]}),
    "dipolar_sigma_zero": particles({"sigma": 0}),
    "dipolar_epsilon_negative": particles({"epsilon": -1}),
    "dipolar_short_range_unknown": particles({"short_range": "coulomb"}),
    "dipolar_cutoff_negative": particles({"cutoff": -1}),
    "dipolar_dimension_four": particles({"dimension": 4}),
    "dipolar_planar_dipole_off_plane": particles({"dimension": 2, "mu_bar": [0, 1, 1]}),
    "dipolar_positions_unknown": particles({"positions": "grid"}),
    "dipolar_box_zero": particles({"box": 0}),
    "dipolar_min_distance_negative": particles({"min_start_distance": -1}),
    "dipolar_momentum_scale_negative": particles({"momentum_scale": -0.1}),
    "dipolar_cannot_place_particles": particles({"N": 1000, "box": 1}),
    "dipolar_pair_separation_alone": particles({"pair_separation": 2}),
    "dipolar_pair_in_3d": particles({"pair_separation": 2, "pair_angles": [0, 90], "dimension": 3}),
    "dipolar_pair_angles_three_entries": particles({"pair_separation": 2, "pair_angles": [0, 90, 180]}),
    "dipolar_pair_with_random_ic": edit(particles({"pair_separation": 2, "pair_angles": [0, 90]}),
                                        {"problems/0/ics": ["random:1"]}),
    "pendulum_omega_zero": problem_override("double_pendulum", {"omega": 0}, method="zs"),
    "pendulum_masses_one_entry": problem_override("double_pendulum", {"masses": [1]}, method="zs"),
    "pendulum_length_negative": problem_override("double_pendulum", {"lengths": [1, -1]}, method="zs"),
    "pendulum_gravity_negative": problem_override("double_pendulum", {"gravity": -9.8}, method="zs"),
    "pendulum_gravity_sign_zero": problem_override("double_pendulum", {"gravity_sign": 0}, method="zs"),
    "pendulum_q0_off_rods": problem_override("double_pendulum", {"q0": [0, -1, 1, -3]}, method="zs"),
    "pendulum_reference_unknown": problem_override("double_pendulum", {"reference": "exact"}, method="zs"),
    "chain_n_zero": problem_override("pendulum_chain", {"n": 0}, method="zs"),
    "chain_n_above_cap": problem_override("pendulum_chain", {"n": 201}, method="zs"),
    "swing_q0_string": problem_override("pendulum", {"q0": "1"}, method="leapfrog_dkd"),
    "swing_p0_null": problem_override("pendulum", {"p0": None}, method="leapfrog_dkd"),
    "swing_unknown_key": problem_override("pendulum", {"omega": 2}, method="leapfrog_dkd"),
    "dna_N_two": problem_override("dna_torsion", {"N": 2}, method="zs", preset="n20"),
    "dna_boundary_unknown": problem_override("dna_torsion", {"boundary": "open"}, method="zs", preset="n20"),
    "dna_a_zero": problem_override("dna_torsion", {"a": 0}, method="zs", preset="n20"),
    # --- methods: unknown ids, wrong types, bad parameters, incompatible pairs
    "missing_methods": frb(methods=DELETE),
    "methods_empty": frb(methods=[]),
    "methods_string": frb(methods="rkmk4"),
    "methods_entry_number": frb(methods=[4]),
    "method_unknown": frb(methods=["rkmk5"]),
    "method_unknown_second": frb(methods=["rkmk4", "RKMK4"]),
    "method_entry_without_id": frb(methods=[{"params": {}}]),
    "method_entry_id_number": frb(methods=[{"id": 4}]),
    "method_entry_unknown_key": frb(methods=[{"id": "rkmk4", "param": {"truncation": 0}}]),
    "method_params_list": method_params("rkmk4", ["truncation", 0]),
    "method_params_string": method_params("rkmk4", "truncation=0"),
    "rkmk_unknown_parameter": method_params("rkmk4", {"colour": "red"}),
    "rkmk_truncation_word": method_params("rkmk4", {"truncation": "huge"}),
    "rkmk_truncation_negative": method_params("rkmk4", {"truncation": -1}),
    "rkmk_truncation_too_large": method_params("rkmk4", {"truncation": 201}),
    "rkmk_truncation_2_pow_32": method_params("rkmk4", {"truncation": 4294967296}),
    "rkmk_trivialisation_unknown": method_params("rkmk4", {"trivialisation": "up"}),
    "rkmk_dexpinv_sign_bool": method_params("rkmk4", {"dexpinv_sign": True}),
    "rkmk_right_on_particles": edit(PARTICLES, {"methods": [{"id": "rkmk4", "params": {"trivialisation": "right"}}]}),
    "mr2_ordering_repeated_axis": method_params("mr2", {"ordering": "112"}),
    "mr2_ordering_four_digits": method_params("mr2", {"ordering": "1234"}),
    "mr2_rotation_unknown": method_params("mr2", {"rotation": "quaternion"}),
    "imid_solver_unknown": method_params("imid", {"solver": "broyden"}),
    "imid_tol_zero": method_params("imid", {"tol": 0}),
    "imid_tol_one": method_params("imid", {"tol": 1}),
    "imid_max_iter_zero": method_params("imid", {"max_iter": 0}),
    "imid_max_iter_float": method_params("imid", {"max_iter": 50.5}),
    "imid_safeguard_string": method_params("imid", {"safeguard": "yes"}),
    "zs_beta_negative": edit(NEWTON, {"methods": [{"id": "zs", "params": {"beta": -0.5}}]}),
    "zs_beta_string": edit(NEWTON, {"methods": [{"id": "zs", "params": {"beta": "0.25"}}]}),
    "rattle_multiplier_solve_unknown": edit(NEWTON, {"methods": [{"id": "rattle", "params": {"multiplier_solve": "blocks"}}]}),
    "buss1_on_lagrange_top": pair("buss1", "lagrange_top"),
    "mr2_on_coulomb_wall": pair("mr2", "coulomb_wall"),
    "buss1_on_dipolar_spheres": pair("buss1", "dipolar_spheres", "kjer2017_2d_n2"),
    "imid_on_dipolar_spheres": pair("imid", "dipolar_spheres", "kjer2017_2d_n2"),
    "rkmk4_on_double_pendulum": pair("rkmk4", "double_pendulum"),
    "velocity_verlet_on_free_rigid_body": pair("velocity_verlet", "free_rigid_body"),
    "rattle_on_dna_torsion": pair("rattle", "dna_torsion", "n20"),
    "rkmk4_on_pendulum": pair("rkmk4", "pendulum"),
    "leapfrog_dkd_on_double_pendulum": pair("leapfrog_dkd", "double_pendulum"),
    # --- observe, timing, fit, name, unknown keys
    "observe_unknown_key": frb(observe={"samples": 10}),
    "observe_list": frb(observe=[]),
    "observe_ref_samples_negative": frb(observe={"ref_samples": -1}),
    "observe_drift_blocks_zero": frb(observe={"drift_blocks": 0}),
    "observe_divergence_factor_one": frb(observe={"divergence_factor": 1}),
    "observe_divergence_energy_zero": frb(observe={"divergence_energy": 0}),
    "observe_divergence_energy_negative": frb(observe={"divergence_energy": -100}),
    "observe_series_points_string": frb(observe={"series_points": "many"}),
    "observe_series_pi_replaced": frb(observe={"series_pi": True}),
    "observe_series_extra_number": frb(observe={"series_extra": 1}),
    "observe_series_extra_unknown": frb(observe={"series_extra": ["configuration"]}),
    "timing_reps_negative": frb(timing={"reps": -1}),
    "timing_reps_above_1000": frb(timing={"reps": 1001}),
    "timing_min_sample_negative": frb(timing={"min_sample_seconds": -1}),
    "timing_unknown_key": frb(timing={"repetitions": 3}),
    "fit_metrics_empty": frb(fit={"metrics": []}),
    "fit_metrics_number": frb(fit={"metrics": [3]}),
    "fit_unknown_key": frb(fit={"metric": "state_err_final"}),
    "fit_string": frb(fit="yes"),
    "fit_floor_string": frb(fit={"floor": "low"}),
    "name_number": frb(name=5),
    "unknown_top_level_key": frb(colour="red"),
    "unknown_key_case": frb(H=[0.1]),
    "unknown_key_method_singular": frb(method="rkmk4"),
    "unknown_key_empty": frb(**{"": 1}),
}

# ---------------------------------------------------------------------------------------------------
# Run configs: `gibench run --config FILE --out OUT`.

RUN = {"problem": "free_rigid_body", "method": "rkmk4", "h": 0.01, "T": 1}
RV = '"problem": "free_rigid_body", "method": "rkmk4"'


def run(**changes):
    return edit(RUN, {k.replace("__", "/"): v for k, v in changes.items()})


def run_override(params, problem="free_rigid_body", method="rkmk4", **changes):
    return run(problem=problem, method=method, overrides=params, **changes)


RUN_CASES = {
    "empty": b"",
    "whitespace_only": b"\n \n\t\n",
    "truncated": b'{"problem": "free_rigid_body", "method": "rk',
    "top_level_array": json.dumps([RUN]).encode(),
    "top_level_string": b'"rkmk4"',
    "top_level_null": b"null",
    "trailing_garbage": (json.dumps(RUN) + "}").encode(),
    "comment": ('{' + RV + ', "h": 0.01, "T": 1 /* one time unit */}').encode(),
    "dup_h": ('{' + RV + ', "h": 0.01, "h": 0.02, "T": 1}').encode(),
    "dup_method": ('{"problem": "free_rigid_body", "method": "rkmk4", "method": "rkmk2", "h": 0.01, "T": 1}').encode(),
    "dup_in_overrides": ('{' + RV + ', "h": 0.01, "T": 1, "overrides": {"seed": 1, "seed": 2}}').encode(),
    "dup_in_method_params": ('{' + RV + ', "h": 0.01, "T": 1, '
                             '"method_params": {"truncation": 0, "truncation": 1}}').encode(),
    "invalid_byte_in_method": b'{"problem": "free_rigid_body", "method": "rkmk4\xc3", "h": 0.01, "T": 1}',
    "utf16le_with_bom": b"\xff\xfe" + json.dumps(RUN).encode("utf-16-le"),
    "utf8_bom_twice": b"\xef\xbb\xbf\xef\xbb\xbf" + json.dumps(RUN).encode(),
    "nested_65_in_method_params": ('{' + RV + ', "h": 0.01, "T": 1, "method_params": {"truncation": ' +
                                   nested(65, "0") + '}}').encode(),
    "h_nan_bare": ('{' + RV + ', "h": NaN, "T": 1}').encode(),
    "h_1e999": ('{' + RV + ', "h": 1e999, "T": 1}').encode(),
    "T_infinity_bare": ('{' + RV + ', "h": 0.01, "T": Infinity}').encode(),
    "unknown_key": run(colour="red"),
    "unknown_key_sweep_style": run(methods=["rkmk4"]),
    "unknown_key_case": run(Method="rkmk4"),
    "missing_problem": run(problem=DELETE),
    "missing_method": run(method=DELETE),
    "problem_unknown": run(problem="free_rigid"),
    "problem_number": run(problem=1),
    "problem_empty": run(problem=""),
    "method_unknown": run(method="rk4"),
    "method_list": run(method=["rkmk4"]),
    "preset_unknown": run(preset="kjer2016"),
    "preset_of_other_problem": run(preset="kjer2017_n10"),
    "preset_null": run(preset=None),
    "ic_unknown": run(ic="random"),
    "ic_random_negative": run(ic="random:-4"),
    "ic_number": run(ic=3),
    "overrides_list": run(overrides=[{"inertia": [1, 2, 3]}]),
    "overrides_string": run(overrides="inertia=[1,2,3]"),
    "overrides_unknown_parameter": run_override({"mass": 1}),
    "method_params_list": run(method_params=["truncation"]),
    "method_params_unknown": run(method_params={"order": 4}),
    "method_params_bad_truncation": run(method_params={"truncation": "all"}),
    "h_zero": run(h=0),
    "h_negative": run(h=-0.01),
    "h_string": run(h="0.01"),
    "h_null": run(h=None),
    "h_list": run(h=[0.01]),
    "h_bool": run(h=True),
    "missing_h": run(h=DELETE),
    "T_zero": run(T=0),
    "T_negative": run(T=-1),
    "T_string": run(T="1"),
    "T_not_whole_steps": run(h=0.3),
    "T_and_steps": run(steps=100),
    "neither_T_nor_steps": run(T=DELETE),
    "steps_zero": run(T=DELETE, steps=0),
    "steps_negative": run(T=DELETE, steps=-1),
    "steps_fraction": run(T=DELETE, steps=2.5),
    "steps_1e30": run(T=DELETE, steps=1e30),
    "steps_2_pow_63": run(T=DELETE, steps=9223372036854775808),
    "steps_string": run(T=DELETE, steps="100"),
    "inertia_zero": run_override({"inertia": [0, 1, 1]}),
    "inertia_negative": run_override({"inertia": [1, 1, -1]}),
    "inertia_100000_entries": run_override({"inertia": [2] * 100000}),
    "R0_not_rotation": run_override({"R0": [0, 1, 0, 1, 0, 0, 0, 0, 1]}),
    "incompatible_buss1_lagrange_top": run(problem="lagrange_top", method="buss1"),
    "incompatible_rkmk4_pendulum_chain": run(problem="pendulum_chain", method="rkmk4"),
    "dipolar_N_zero": run_override({"N": 0}, problem="dipolar_spheres", preset="kjer2017_2d_n2", T=0.01),
    "dipolar_N_one": run_override({"N": 1}, problem="dipolar_spheres", preset="kjer2017_2d_n2", T=0.01),
    "dipolar_sigma_negative": run_override({"sigma": -1}, problem="dipolar_spheres", preset="kjer2017_2d_n2",
                                           T=0.01),
}

# ---------------------------------------------------------------------------------------------------
# --set items: `gibench run --out OUT <set/PROBLEM/base.args> --set LINE ...`, one item per line.

SET_BASES = {
    "free_rigid_body": ["--problem", "free_rigid_body", "--method", "rkmk4", "--h", "0.01", "--T", "1"],
    "dipolar_spheres": ["--problem", "dipolar_spheres", "--preset", "kjer2017_2d_n2", "--method", "rkmk4",
                        "--h", "0.01", "--T", "0.01", "--no-reference"],
    "lagrange_top": ["--problem", "lagrange_top", "--method", "rkmk4", "--h", "0.01", "--T", "0.01", "--no-reference"],
    "coulomb_wall": ["--problem", "coulomb_wall", "--method", "imid", "--h", "0.01", "--T", "0.01", "--no-reference"],
    "double_pendulum": ["--problem", "double_pendulum", "--method", "zs", "--h", "0.01", "--T", "0.01",
                        "--no-reference"],
    "dna_torsion": ["--problem", "dna_torsion", "--preset", "n20", "--method", "zs", "--h", "0.01", "--T", "0.01",
                    "--no-reference"],
}

SETS = {
    "free_rigid_body": {
        "inertia_zero": ["inertia=[1,0,1]"],
        "inertia_negative": ["inertia=[-1,1,1]"],
        "inertia_tiny_negative": ["inertia=[1,1,-1e-300]"],
        "inertia_two_entries": ["inertia=[1,1]"],
        "inertia_scalar": ["inertia=2"],
        "inertia_word": ["inertia=heavy"],
        "inertia_truncated": ["inertia=[1,2,3"],
        "inertia_nan_entry": ["inertia=[NaN,1,1]"],
        "inertia_1e999_entry": ["inertia=[1,1e999,1]"],
        "inertia_60000_entries": ["inertia=[" + ",".join(["1"] * 60000) + "]"],
        "inertia_nested_65000": ["inertia=" + nested(65000, "1")],  # as deep as one argument allows
        "inertia_unclosed_60000": ["inertia=" + "[" * 60000],
        "inertia_object": ['inertia={"I1":1}'],
        "inertia_invalid_utf8_word": ["inertia=\udcff\udcfe"],
        "Pi0_nan": ["Pi0=nan"],
        "Pi0_infinity": ["Pi0=-Infinity"],
        "Pi0_four_entries": ["Pi0=[1,2,3,4]"],
        "Omega0_and_Pi0": ["Omega0=[1,0,0]", "Pi0=[1,0,0]"],
        "R0_reflection": ["R0=[1,0,0,0,1,0,0,0,-1]"],
        "R0_almost_rotation": ["R0=[1,0,0,0,1,0,0,0,1.0001]"],
        "seed_negative": ["seed=-1"],
        "seed_fraction": ["seed=1.5"],
        "seed_hex": ["seed=0x10"],
        "seed_plus": ["seed=+1"],
        "seed_1e30": ["seed=1e30"],
        "seed_null": ["seed=null"],
        "unknown_parameter": ["mass=3"],
        "parameter_case": ["Inertia=[1,2,3]"],
        "space_before_equals": ["inertia =[1,2,3]"],
        "invalid_utf8_key": ["\udcffinertia=[1,2,3]"],
        "no_equals": ["inertia"],
        "empty_key": ["=[1,2,3]"],
        "empty_value": ["inertia="],
        "empty_item": [""],
        "duplicate": ["seed=1", "seed=2"],
        "duplicate_same_value": ["seed=1", "seed=1"],
        "good_then_bad": ["seed=3", "inertia=[1,2,0]"],
    },
    "dipolar_spheres": {
        "N_zero": ["N=0"],
        "N_one": ["N=1"],
        "N_negative": ["N=-2"],
        "N_fraction": ["N=2.5"],
        "N_string": ['N="10"'],
        "N_1e30": ["N=1e30"],
        "N_above_cap": ["N=10000001"],
        "N_uint64_max": ["N=18446744073709551615"],
        "mass_zero": ["mass=0"],
        "inertia_negative": ["inertia=[1,1.88,-2.88]"],
        "mu_bar_four_entries": ["mu_bar=[0,1,1,0]"],
        "epsilon_zero": ["epsilon=0"],
        "short_range_unknown": ["short_range=morse"],
        "cutoff_nan": ["cutoff=NaN"],
        "dimension_one": ["dimension=1"],
        "positions_unknown": ["positions=lattice"],
        "unknown_parameter": ["temperature=300"],
        "pair_angles_alone": ["pair_angles=[0,90]"],
        "pair_separation_negative": ["pair_separation=-2", "pair_angles=[0,90]"],
        "pair_angles_one_entry": ["pair_separation=2", "pair_angles=[0]"],
        "pair_angles_string": ["pair_separation=2", 'pair_angles="0,90"'],
        "pair_with_three_particles": ["N=3", "pair_separation=2", "pair_angles=[0,90]"],
        "pair_moving": ["pair_separation=2", "pair_angles=[0,90]", "angular_momentum_scale=0.1"],
    },
    "lagrange_top": {
        "inertia_triangle": ["inertia=[1,1,3]"],
        "weight_nan": ["weight=nan"],
        "weight_1e308": ["weight=1e308"],  # finite, but the momenta overflow within a step
        "psi0_word": ["psi0=tilted"],
        "unknown_parameter": ["offset=2"],
    },
    "coulomb_wall": {
        "offset_one": ["offset=1"],
        "eps_negative": ["eps=-1"],
        "k_string": ['k="1"'],
        "pi0_two_entries": ["pi0=[2,2]"],
    },
    "double_pendulum": {
        "omega_negative": ["omega=-20"],
        "masses_zero": ["masses=[1,0]"],
        "v0_not_tangent": ["v0=[1,0,0,0]"],
        "gravity_sign_two": ["gravity_sign=2"],
    },
    "dna_torsion": {
        "N_above_cap": ["N=2001"],
        "epsilon_negative": ["epsilon=-1"],
        "boundary_number": ["boundary=1"],
    },
}

# ---------------------------------------------------------------------------------------------------
# Whole command lines: `gibench LINE ...`, one argument per line; @OUT@ is the output file, @DIR@ the
# (empty) output directory.

def run_cmd(h="0.1", T="1", problem="free_rigid_body", method="rkmk4", extra=()):
    """A `gibench run` command line; T=None leaves --T out (for the --steps cases)."""
    args = ["run", "--out", "@OUT@", "--problem", problem, "--method", method, "--h", h]
    return args + (["--T", T] if T is not None else []) + list(extra)


RUN_ARGS = run_cmd(h="0.01")

ARGS = {
    "run_problem_unknown": run_cmd(problem="nope"),
    "run_problem_empty": run_cmd(problem=""),
    "run_method_empty": run_cmd(method=""),
    "run_preset_unknown": RUN_ARGS + ["--preset", "nope"],
    "run_ic_unknown": RUN_ARGS + ["--ic", "gaussian"],
    "run_ic_random_word": RUN_ARGS + ["--ic", "random:x"],
    "run_h_nan": run_cmd(h="nan"),
    "run_h_inf": run_cmd(h="inf"),
    "run_h_word": run_cmd(h="small"),
    "run_h_zero": run_cmd(h="0"),
    "run_T_negative": run_cmd(T="-1"),
    "run_T_nan": run_cmd(T="nan"),
    "run_T_zero_steps_zero": run_cmd(T="0", extra=["--steps", "0"]),
    "run_steps_negative": run_cmd(T=None, extra=["--steps", "-3"]),
    "run_steps_fraction": run_cmd(T=None, extra=["--steps", "1.5"]),
    "run_steps_overflow": run_cmd(T=None, extra=["--steps", "99999999999999999999"]),
    "run_T_and_steps": RUN_ARGS + ["--steps", "100"],
    "run_series_negative": RUN_ARGS + ["--series", "-1"],
    "run_timing_reps_negative": RUN_ARGS + ["--timing-reps", "-1"],
    "run_unknown_option": RUN_ARGS + ["--frobnicate"],
    "run_option_twice": RUN_ARGS + ["--h", "0.02"],
    "run_missing_config": RUN_ARGS + ["--config", "@DIR@/missing.json"],
    "run_config_is_directory": ["run", "--out", "@OUT@", "--config", "@DIR@"],
    "param_unknown": RUN_ARGS + ["--param", "colour=red"],
    "param_truncation_word": RUN_ARGS + ["--param", "truncation=huge"],
    "param_truncation_negative": RUN_ARGS + ["--param", "truncation=-1"],
    "param_truncation_2_pow_32": RUN_ARGS + ["--param", "truncation=4294967296"],
    "param_truncation_list": RUN_ARGS + ["--param", "truncation=[1]"],
    "param_truncation_1e999": RUN_ARGS + ["--param", "truncation=1e999"],
    "param_truncation_nested_65000": RUN_ARGS + ["--param", "truncation=" + nested(65000, "1")],
    "param_no_equals": RUN_ARGS + ["--param", "truncation"],
    "param_empty_key": RUN_ARGS + ["--param", "=3"],
    "param_duplicate": RUN_ARGS + ["--param", "truncation=1", "--param", "truncation=2"],
    "param_trivialisation_nan": RUN_ARGS + ["--param", "trivialisation=NaN"],
    "param_mr2_ordering": run_cmd(method="mr2", extra=["--param", "ordering=4"]),
    "param_imid_tol_zero": run_cmd(method="imid", extra=["--param", "tol=0"]),
    "param_imid_max_iter_huge": run_cmd(method="imid", extra=["--param", "max_iter=1000000000"]),
    "param_zs_beta_negative": run_cmd(h="0.01", T="0.01", problem="double_pendulum", method="zs",
                                      extra=["--param", "beta=-1"]),
    "param_on_method_without_parameters": run_cmd(method="odeint_rk4_quat", extra=["--param", "order=4"]),
    "incompatible_mr2_magnetized_body": run_cmd(problem="magnetized_body", method="mr2"),
    "incompatible_newmark_free_rigid_body": run_cmd(method="newmark"),
    "incompatible_dlm2_dna_torsion": ["run", "--out", "@OUT@", "--problem", "dna_torsion", "--preset", "n20",
                                      "--method", "dlm2", "--h", "0.1", "--T", "1"],
    "sweep_missing_file": ["sweep", "@DIR@/missing.json", "--out", "@OUT@"],
    "sweep_config_is_directory": ["sweep", "@DIR@", "--out", "@OUT@"],
    "sweep_jobs_word": ["sweep", "@DIR@/missing.json", "--out", "@OUT@", "--jobs", "all"],
    "reproduce_unknown_figure": ["reproduce", "kjer2017-fig3.99", "--out-dir", "@DIR@"],
    "reproduce_empty_figure_id": ["reproduce", "", "--out-dir", "@DIR@"],
    "reproduce_figure_id_case": ["reproduce", "KJER2017-FIG3.2", "--out-dir", "@DIR@"],
    "reproduce_good_and_unknown": ["reproduce", "kjer2017-fig3.2", "nope", "--out-dir", "@DIR@"],
    "reference_problem_unknown": ["reference", "--problem", "nope", "--times", "1", "--out", "@OUT@"],
    "reference_times_nan": ["reference", "--problem", "free_rigid_body", "--times", "nan", "--out", "@OUT@"],
    "reference_times_negative": ["reference", "--problem", "free_rigid_body", "--times", "-1", "--out", "@OUT@"],
    "reference_times_word": ["reference", "--problem", "free_rigid_body", "--times", "0,one", "--out", "@OUT@"],
    "reference_preset_unknown": ["reference", "--problem", "free_rigid_body", "--preset", "x", "--times", "1",
                                 "--out", "@OUT@"],
    "rank_problem_unknown": ["rank", "--problem", "nope", "--out", "@OUT@", "--no-plots"],
    "rank_target_zero": ["rank", "--problem", "free_rigid_body", "--targets", "0", "--out", "@OUT@", "--no-plots"],
    "rank_include_unknown": ["rank", "--problem", "free_rigid_body", "--include", "nope", "--out", "@OUT@",
                             "--no-plots"],
    "conformance_method_unknown": ["conformance", "--method", "nope", "--out", "@OUT@"],
    "check_baseline_unknown": ["check", "nope", "--out", "@OUT@"],
    "precision_study_preset_unknown": ["precision-study", "--preset", "nope", "--out", "@OUT@"],
    "precision_study_precision_unknown": ["precision-study", "--precisions", "float", "--out", "@OUT@"],
    "particles_dump_rigid_body": ["particles-dump", "--problem", "free_rigid_body", "--out", "@OUT@"],
    "particles_dump_N_zero": ["particles-dump", "--set", "N=0", "--out", "@OUT@"],
    "list_unknown": ["list", "everything"],
    "unknown_subcommand": ["frobnicate"],
}

# ---------------------------------------------------------------------------------------------------
# Files the args cases read through @SRC@ (files/): valid configs to hang one mistake on, shard files for merge
# and fixture trees for check (GIBENCH_ROOT=@SRC@/files/baseline_<case>, set in args/<case>.env).

FILES = {
    "sweep_one_cell.json": FRB,
    "sweep_T_beyond_reference.json": {"problems": [{"problem": "double_pendulum"}], "methods": ["zs"], "h": [1000],
                                      "T": 1e5},
}

# A real shard: `gibench sweep files/sweep_two_cells.json --shard 0/2 --reproducible`, its row trimmed to the
# fields merge reads. merge checks the fingerprint against the config before it reads the outcomes, so a change
# to sweep_fingerprint() turns the row cases into fingerprint errors: regenerate SHARD_FINGERPRINT then.
TWO_CELLS = edit(FRB, {"h": [0.1, 0.05]})
SHARD_FINGERPRINT = "5db59d4eb6002661"
SHARD_ROW = {"problem": "free_rigid_body", "preset": "kjer2017", "ic": "preset", "method": "rkmk4",
             "method_params": {}, "param_hash": "1d677e9ed80e1134", "h": 0.1, "T": 1.0, "steps": 10, "rep": 0,
             "status": "ok", "status_step": None, "metrics": {"state_err_final": 1e-6}, "timing": None}
SHARD = {"schema_version": 1, "kind": "gibench.sweep_shard", "fingerprint": SHARD_FINGERPRINT, "cells": 2,
         "shard": {"index": 0, "count": 2}, "config": TWO_CELLS, "outcomes": [{"i": 0, "row": SHARD_ROW}]}


def shard(**changes):
    return edit(SHARD, {k.replace("__", "/"): v for k, v in changes.items()})


SHARD_1 = shard(shard={"index": 1, "count": 2},
                outcomes=[{"i": 1, "row": dict(SHARD_ROW, h=0.05, steps=20)}])

FILES.update({
    "sweep_two_cells.json": TWO_CELLS,
    "shard_0_of_2.json": SHARD,
    "shard_1_of_2.json": SHARD_1,
    "shard_count_three.json": shard(shard={"index": 1, "count": 3}, outcomes=[]),
    "shard_top_level_array.json": [SHARD],
    "shard_kind_number.json": shard(kind=1),
    "shard_fingerprint_number.json": shard(fingerprint=12),
    "shard_cells_string.json": shard(cells="2"),
    "shard_shard_missing.json": shard(shard=DELETE),
    "shard_index_string.json": shard(shard={"index": "0", "count": 2}),
    "shard_index_fraction.json": shard(shard={"index": 0.5, "count": 2}),
    "shard_index_out_of_range.json": shard(shard={"index": 2, "count": 2}),
    "shard_count_zero.json": shard(shard={"index": 0, "count": 0}),
    "shard_outcomes_object.json": shard(outcomes={"i": 0}),
    "shard_outcome_i_string.json": shard(outcomes__0__i="0"),
    "shard_outcome_i_negative.json": shard(outcomes__0__i=-1),
    "shard_outcome_i_out_of_range.json": shard(outcomes__0__i=2),
    "shard_outcome_i_other_shard.json": shard(outcomes__0__i=1),
    "shard_outcome_twice.json": shard(outcomes=[SHARD["outcomes"][0]] * 2),
    "shard_row_string.json": shard(outcomes__0__row="ok"),
    "shard_row_status_number.json": shard(outcomes__0__row__status=0),
    "shard_row_metrics_list.json": shard(outcomes__0__row__metrics=[1e-6]),
    "shard_row_steps_fraction.json": shard(outcomes__0__row__steps=10.5),
    "shard_row_timing_string.json": shard(outcomes__0__row__timing="fast"),
    "shard_row_other_method.json": shard(outcomes__0__row__method="rkmk2"),
    "shard_series_list.json": edit(SHARD, {"outcomes": [dict(SHARD["outcomes"][0], series=[1, 2])]}),
    "shard_config_string.json": shard(config="sweep_two_cells.json"),
})

# check: a baseline definition "tiny" and its recorded file, one mistake per fixture tree.
TINY = {"name": "tiny", "protects": "nothing: a fixture of the bad-input corpus", "sweeps": [FRB],
        "metrics": ["state_err_final", "energy_rel_err_final"]}
CELL = {"key": "free_rigid_body/kjer2017 ic=preset rkmk4{} h=0.1 steps=10", "method": "rkmk4", "status": "ok",
        "metrics": {"state_err_final": 1e-6, "energy_rel_err_final": -1e-9}}  # the signed one may be negative
FIT = {"key": "fit", "method": "rkmk4", "problem": "free_rigid_body", "preset": "kjer2017", "ic": "preset",
       "ok": True, "conclusive": True, "order_hat": 4.0, "ci95": [3.9, 4.1], "window": {}}
RECORDED = {"schema_version": 1, "kind": "gibench.baseline", "name": "tiny", "cells": [CELL], "fits": [FIT]}


def recorded(**changes):
    return edit(RECORDED, {k.replace("__", "/"): v for k, v in changes.items()})


BASELINES = {
    "duplicated_cell": recorded(cells=[CELL, CELL]),
    "duplicated_fit": recorded(fits=[FIT, FIT]),
    "negative_error": recorded(cells__0__metrics={"state_err_final": -1e-6}),
    "error_string": recorded(cells__0__metrics={"state_err_final": "1e-6"}),
    "error_list": recorded(cells__0__metrics={"state_err_final": [1e-6]}),
    "cells_object": recorded(cells={"0": CELL}),
    "cell_key_number": recorded(cells__0__key=5),
    "cell_status_null": recorded(cells__0__status=None),
    "cell_metrics_list": recorded(cells__0__metrics=[1e-6]),
    "cell_not_object": recorded(cells=["cell"]),
    "fits_missing": recorded(fits=DELETE),
    "fit_ok_without_order": edit(RECORDED, {"fits": [{k: v for k, v in FIT.items() if k != "order_hat"}]}),
    "fit_order_string": recorded(fits__0__order_hat="4"),
    "fit_ok_string": recorded(fits__0__ok="true"),
    "kind_missing": recorded(kind=DELETE),
    "top_level_array": [RECORDED],
}
BASELINE_CASES = list(BASELINES)
for name, doc in BASELINES.items():
    FILES[f"baseline_{name}/harness/baselines/tiny.json"] = TINY
    FILES[f"baseline_{name}/results/baselines/tiny.json"] = doc

# ---------------------------------------------------------------------------------------------------
# Issue 18: every number through one strict grammar, ids checked, long requests refused before they run,
# inputs read with a bound, shard and baseline files checked field by field. Each case passed (or hung,
# crashed, or failed as "internal") before. Cases that would run when the bug is back keep their run short.

ONE_CELL = "@SRC@/files/sweep_one_cell.json"  # a valid sweep: a case on it fails only for its one mistake
RANK = ["rank", "--problem", "free_rigid_body", "--out", "@OUT@", "--no-plots", "--n-max", "8", "--reps", "1"]
PRECISION = ["precision-study", "--preset", "kjer2017_2d_n2", "--T", "0.02", "--halvings", "0", "--out", "@OUT@"]
REFERENCE = ["reference", "--out", "@OUT@", "--times"]


def jobs_cases(command, args):
    return {f"{command}_jobs_{name}": args + ["--jobs", value]
            for name, value in (("65536", "65536"), ("40000", "40000"), ("negative", "-1"), ("empty", ""),
                                ("1025", "1025"), ("plus", "+2"))}


ARGS.update({
    # empty strings for numbers (CLI11 read them as 0)
    "run_h_empty": run_cmd(h=""),
    "run_T_empty": run_cmd(T=""),
    "run_steps_empty": run_cmd(T=None, extra=["--steps", ""]),
    "run_series_empty": RUN_ARGS + ["--series", ""],
    "run_timing_reps_empty": RUN_ARGS + ["--timing-reps", ""],
    "sweep_cell_time_budget_empty": ["sweep", ONE_CELL, "--out", "@OUT@", "--cell-time-budget", ""],
    "reference_times_empty": REFERENCE + [""] + ["--problem", "free_rigid_body"],
    "reference_times_empty_item": REFERENCE + ["0,,1"] + ["--problem", "free_rigid_body"],
    "reference_times_trailing_comma": REFERENCE + ["1,"] + ["--problem", "free_rigid_body"],
    "rank_targets_empty_item": RANK + ["--targets", "1e-3,,1e-6"],
    "rank_targets_empty": RANK + ["--targets", ""],
    "rank_T_empty": RANK + ["--T", ""],
    "rank_reps_empty": RANK[:-2] + ["--reps", ""],
    "rank_n_max_empty": ["rank", "--problem", "free_rigid_body", "--out", "@OUT@", "--no-plots", "--reps", "1",
                         "--n-max", ""],
    "precision_study_halvings_empty": PRECISION[:-4] + ["--out", "@OUT@", "--halvings", ""],
    "precision_study_series_empty": PRECISION + ["--series", ""],
    # beyond the type, and forms the JSON side refuses (hex, '+', spaces, leading zeros)
    "run_series_2_pow_63": RUN_ARGS + ["--series", "9223372036854775808"],
    "run_steps_2_pow_63": run_cmd(T=None, extra=["--steps", "9223372036854775808"]),
    "run_timing_reps_2_pow_31": RUN_ARGS + ["--timing-reps", "2147483648"],
    "run_h_hex": run_cmd(h="0x10", T=None, extra=["--steps", "1"]),
    "run_h_plus": run_cmd(h="+0.01"),
    "run_h_leading_space": run_cmd(h=" 0.01"),
    "run_h_trailing_space": run_cmd(h="0.01 "),
    "run_h_leading_dot": run_cmd(h=".01"),
    "run_h_underflow": run_cmd(h="1e-400", T=None, extra=["--steps", "1"]),
    "run_h_infinity_word": run_cmd(h="Infinity"),
    "run_T_hex_float": run_cmd(T="0x1p0"),
    "run_steps_hex": run_cmd(T=None, extra=["--steps", "0x10"]),
    "run_steps_leading_zero": run_cmd(T=None, extra=["--steps", "010"]),
    "run_steps_plus": run_cmd(T=None, extra=["--steps", "+10"]),
    "run_steps_exponent": run_cmd(T=None, extra=["--steps", "1e1"]),
    "run_series_hex": RUN_ARGS + ["--series", "0x10"],
    "reference_times_hex": REFERENCE + ["0x1"] + ["--problem", "free_rigid_body"],
    "rank_targets_plus": RANK + ["--targets", "+1e-3"],
    "sweep_cell_time_budget_hex": ["sweep", ONE_CELL, "--out", "@OUT@", "--cell-time-budget", "0x10"],
    # initial conditions: exactly preset or random:K
    "run_ic_random_space": RUN_ARGS + ["--ic", "random: 1"],
    "run_ic_random_plus": RUN_ARGS + ["--ic", "random:+1"],
    "run_ic_random_leading_zero": RUN_ARGS + ["--ic", "random:01"],
    "run_ic_random_trailing_space": RUN_ARGS + ["--ic", "random:1 "],
    "run_ic_empty": RUN_ARGS + ["--ic", ""],
    "reference_ic_random_space": REFERENCE + ["1", "--problem", "free_rigid_body", "--ic", "random: 1"],
    # --shard i/K with integers as everywhere else
    "sweep_shard_fraction": ["sweep", ONE_CELL, "--out", "@OUT@", "--shard", "1.5/2"],
    "sweep_shard_leading_space": ["sweep", ONE_CELL, "--out", "@OUT@", "--shard", " 1/2"],
    "sweep_shard_plus": ["sweep", ONE_CELL, "--out", "@OUT@", "--shard", "+1/2"],
    "sweep_shard_count_space": ["sweep", ONE_CELL, "--out", "@OUT@", "--shard", "0/ 2"],
    # ids: an empty one is not the default, an unknown metric is not "never reached"
    "rank_metric_nonsense": RANK + ["--metric", "nonsense"],
    "rank_metric_empty": RANK + ["--metric", ""],
    "rank_metric_of_other_kind": RANK + ["--metric", "pos_err_final"],
    "rank_preset_empty": RANK + ["--preset", ""],
    "conformance_method_empty": ["conformance", "--method", "", "--out", "@OUT@"],
    "reference_preset_empty": REFERENCE + ["1", "--problem", "free_rigid_body", "--preset", ""],
    "particles_dump_preset_empty": ["particles-dump", "--preset", "", "--out", "@OUT@"],
    "run_problem_100k": run_cmd(problem="p" * 100000),
    "run_set_key_100k": RUN_ARGS + ["--set", "k" * 100000 + "=1"],
    # long requests refused before they run (the numerical reference would integrate for days)
    "reference_times_1e9_double_pendulum": REFERENCE + ["1e9", "--problem", "double_pendulum"],
    "reference_times_1e9_lagrange_top": REFERENCE + ["1e9", "--problem", "lagrange_top"],
    "reference_times_1e9_dipolar_spheres": REFERENCE + ["1e9", "--problem", "dipolar_spheres", "--preset",
                                                        "kjer2017_2d_n2"],
    "reference_second_time_far": REFERENCE + ["1,1e7", "--problem", "coulomb_wall"],
    "run_T_1e7_pendulum_chain_reference": ["run", "--out", "@OUT@", "--problem", "pendulum_chain", "--method", "zs",
                                           "--h", "1e4", "--T", "1e7"],
    "sweep_T_beyond_reference": ["sweep", "@SRC@/files/sweep_T_beyond_reference.json", "--out", "@OUT@"],
    "rank_T_beyond_reference": RANK[:1] + ["--problem", "lagrange_top"] + RANK[3:] + ["--T", "1e9"],
    # a finite parameter whose motion overflows: a validation error, not a non-finite run or an internal one
    "run_lagrange_weight_1e308_with_reference": ["run", "--out", "@OUT@", "--problem", "lagrange_top", "--method",
                                                 "rkmk4", "--h", "0.01", "--T", "0.01", "--set", "weight=1e308"],
    "reference_lagrange_weight_1e308": REFERENCE + ["1", "--problem", "lagrange_top", "--set", "weight=1e308"],
    # merge reads shard files field by field; each case comes with the valid other shard, so the merge is complete
    **{f"merge_{name}": ["merge", f"@SRC@/files/{name}.json", "@SRC@/files/shard_1_of_2.json", "--out", "@OUT@"]
       for name in (
        "shard_top_level_array", "shard_kind_number", "shard_fingerprint_number", "shard_cells_string",
        "shard_shard_missing", "shard_index_string", "shard_index_fraction", "shard_index_out_of_range",
        "shard_count_zero", "shard_outcomes_object", "shard_outcome_i_string", "shard_outcome_i_negative",
        "shard_outcome_i_out_of_range", "shard_outcome_i_other_shard", "shard_outcome_twice", "shard_row_string",
        "shard_row_status_number", "shard_row_metrics_list", "shard_row_steps_fraction", "shard_row_timing_string",
        "shard_row_other_method", "shard_series_list", "shard_config_string")},
    "merge_same_shard_twice": ["merge", "@SRC@/files/shard_0_of_2.json", "@SRC@/files/shard_0_of_2.json",
                               "--out", "@OUT@"],
    "merge_shard_counts_differ": ["merge", "@SRC@/files/shard_0_of_2.json", "@SRC@/files/shard_1_of_2.json",
                                  "@SRC@/files/shard_count_three.json", "--out", "@OUT@"],
    # check reads the recorded baseline field by field, before any sweep runs (GIBENCH_ROOT: args/*.env)
    **{f"check_{name}": ["check", "tiny", "--out", "@OUT@"] for name in BASELINE_CASES},
    **jobs_cases("sweep", ["sweep", ONE_CELL, "--out", "@OUT@"]),
    **jobs_cases("rank", RANK),
    **jobs_cases("precision_study", PRECISION),
    "reproduce_jobs_65536": ["reproduce", "kjer2017-fig3.2", "--out-dir", "@DIR@", "--no-plots", "--jobs", "65536"],
    "check_jobs_65536": ["check", "freebody-fast", "--out", "@OUT@", "--jobs", "65536"],
})
ARGS.update({
    # empty items inside id lists, and a TMPDIR naming nothing for reproduce --check
    "precision_study_precisions_empty_item": ["precision-study", "--precisions", "double,,long_double", "--out", "@OUT@"],
    "rank_exclude_trailing_comma": ["rank", "--problem", "free_rigid_body", "--exclude", "rkmk4,", "--out", "@OUT@",
                                    "--no-plots"],
    "rank_include_empty_item": ["rank", "--problem", "free_rigid_body", "--include", "rkmk4,,rkmk2", "--out", "@OUT@",
                                "--no-plots"],
    "reproduce_check_tmpdir_missing": ["reproduce", "buss2001-fig4", "--check", "--no-plots"],
})
# Tag selections in sweeps: a non-string id, an unknown or mistyped tag, and a selection that excludes everything.
def tag_sweep(methods, exclude=None):
    d = {"problems": [{"problem": "free_rigid_body", "presets": ["kjer2017"]}], "methods": methods}
    if exclude is not None:
        d["exclude_methods"] = exclude
    d.update({"h": [0.1], "T": 1})
    return d


SWEEP.update({
    "exclude_methods_number": tag_sweep(["rkmk4"], [3]),
    "exclude_methods_unknown_tag": tag_sweep(["tag:splitting"], ["tag:order 2"]),
    "methods_tag_all_excluded": tag_sweep(["tag:splitting"], ["tag:splitting"]),
    "methods_unknown_tag": tag_sweep(["rkmk4", "tag:Splitting"]),
})
# Method files (docs/method_files.md): a formula where a number belongs, an id already registered, a claimed order
# the coefficients do not have (Kutta's 3/8 rule with a_42 mistyped), a directory, a missing file.
METHOD_FILES = "@SRC@/files/method_files/"
FILES["method_files/irrational_text.json"] = ('{\n  "gibench_method": 1,\n  "id": "my_composition",\n  "family": "composition",\n  "order": 4,\n  "citation": "triple jump written as a formula",\n  "base": "leapfrog_dkd",\n  "gamma": ["1/(2-2^(1/3))", "-2^(1/3)/(2-2^(1/3))", "1/(2-2^(1/3))"]\n}\n').encode()
FILES["method_files/taken_id.json"] = ('{\n  "gibench_method": 1,\n  "id": "rkmk4",\n  "family": "rkmk",\n  "order": 1,\n  "citation": "Euler under a taken id",\n  "tableau": {"a": [[]], "b": ["1"]}\n}\n').encode()
FILES["method_files/wrong_order.json"] = ('{\n  "gibench_method": 1,\n  "id": "my_kutta38_typo",\n  "display_name": "3/8 rule with a typo in a_42",\n  "family": "rkmk",\n  "order": 4,\n  "citation": "Kutta 1901, mistyped",\n  "tableau": {\n    "a": [[], ["1/3"], ["-1/3", "1"], ["1", "1", "1"]],\n    "b": ["1/8", "3/8", "3/8", "1/8"]\n  }\n}\n').encode()
ARGS.update({
    "compact_missing_file": ["compact", "@DIR@/nope.json"],
    "compact_no_files": ["compact"],
    "compact_not_a_figure": ["compact", "@SRC@/files/shard_0_of_2.json"],
    "list_json_unknown": ["list", "nope", "--json"],
    "method_file_directory": ["sweep", METHOD_FILES + "none.json", "--method-file", "@SRC@/files/method_files", "--out",
                              "@OUT@"],
    "method_file_formula": ["rank", "--problem", "free_rigid_body", "--method-file", METHOD_FILES + "irrational_text.json",
                            "--out", "@OUT@"],
    "method_file_missing": ["check", "--method-file", METHOD_FILES + "none.json", "--out", "@OUT@"],
    "method_file_taken_id": ["run", "--problem", "free_rigid_body", "--method", "rkmk4", "--h", "0.1", "--T", "1",
                             "--method-file", METHOD_FILES + "taken_id.json", "--out", "@OUT@"],
    "method_file_wrong_order": ["conformance", "--method-file", METHOD_FILES + "wrong_order.json", "--out", "@OUT@"],
    "rank_exclude_unknown_tag": ["rank", "--problem", "free_rigid_body", "--include", "rkmk4,tag:rkmk", "--exclude",
                                 "tag:explict", "--out", "@OUT@", "--no-plots"],
    "rank_include_empty_tag": ["rank", "--problem", "free_rigid_body", "--include", "tag:", "--out", "@OUT@", "--no-plots"],
    "rank_include_unknown_tag": ["rank", "--problem", "free_rigid_body", "--include", "tag:splittin", "--out", "@OUT@",
                                 "--no-plots"],
    # rank refuses a stochastic method (no deterministic error against a reference to rank by)
    "rank_include_stochastic": ["rank", "--problem", "water_cluster", "--preset", "n3", "--out", "@OUT@", "--no-plots",
                                "--n-max", "8", "--reps", "1", "--include", "gla_rattle"],
    "report_missing_input": ["report", "@SRC@/files/no_such_results.json", "--out", "@DIR@/site"],
    "report_out_not_a_report": ["report", "--out", "@DIR@"],
    "report_wrong_kind": ["report", "@SRC@/files/shard_0_of_2.json", "--out", "@DIR@/site"],
})
ENVS = {f"check_{name}": {"GIBENCH_ROOT": f"@SRC@/files/baseline_{name}"} for name in BASELINE_CASES}
ENVS["reproduce_check_tmpdir_missing"] = {"TMPDIR": "@DIR@/no-such-directory"}


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, (dict, list)):
        text = json.dumps(data)
        if len(text) > 20000:  # the huge cases: compact, to keep the corpus small
            text = json.dumps(data, separators=(",", ":"))
        data = (text + "\n").encode()
    path.write_bytes(data)


def lines(items):
    """One argument per line; lone surrogates stand for raw bytes that are not UTF-8."""
    for item in items:
        assert "\n" not in item
    return ("\n".join(items) + "\n").encode("utf-8", "surrogateescape")


def main():
    for sub in ("sweep", "run", "set", "args", "files"):
        shutil.rmtree(HERE / sub, ignore_errors=True)
    for name, data in SWEEP.items():
        write(HERE / "sweep" / (name + ".json"), data)
    for name, data in RUN_CASES.items():
        write(HERE / "run" / (name + ".json"), data)
    for problem, cases in SETS.items():
        write(HERE / "set" / problem / "base.args", lines(SET_BASES[problem]))
        for name, items in cases.items():
            write(HERE / "set" / problem / (name + ".txt"), lines(items))
    for name, items in ARGS.items():
        write(HERE / "args" / (name + ".txt"), lines(items))
    for name, env in ENVS.items():
        write(HERE / "args" / (name + ".env"), lines([f"{k}={v}" for k, v in env.items()]))
    for name, data in FILES.items():
        write(HERE / "files" / name, data)
    total = len(SWEEP) + len(RUN_CASES) + sum(len(c) for c in SETS.values()) + len(ARGS)
    print(f"{len(SWEEP)} sweep, {len(RUN_CASES)} run, {sum(len(c) for c in SETS.values())} set, "
          f"{len(ARGS)} args: {total} cases")


if __name__ == "__main__":
    main()
