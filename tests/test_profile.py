"""Per-operation attribution of pqlab-sim's folded stacks."""

from pqlab.profile import attribute

FOLDED = """main;pqlab_x_crypto_kem_keypair;gen;keccak 700
main;pqlab_x_crypto_kem_keypair;gen 200
main;pqlab_x_crypto_kem_keypair 100
main;pqlab_x_crypto_kem_enc;keccak 50
main;pqlab_harness_begin 999
"""


def test_attribution():
    r = attribute(FOLDED, ["keypair", "encaps", "decaps"])
    kp = r["keypair"]
    assert kp["total"] == 1000
    assert kp["functions"]["keccak"] == [700, 700]
    assert kp["functions"]["gen"] == [200, 900]
    assert kp["functions"]["pqlab_x_crypto_kem_keypair"] == [100, 1000]
    assert r["encaps"]["total"] == 50 and r["decaps"]["total"] == 0
