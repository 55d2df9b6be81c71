package io.jstark.examples.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.verifier.VerifiedStatement;
import org.junit.jupiter.api.Test;

/** Proofs of the Keccak-f table: they verify, and a wrong round is caught before proving or by the verifier. */
class KeccakProofTest {
    private static final ProofOptions SMALL = new ProofOptions(1, 8, 4, 1, 2, "sha256", 0);

    @Test
    void aProofOfFivePermutationsVerifies() throws Exception {
        Example keccak = new KeccakExample().forPermutations(5);
        try (Workload w = keccak.generate(keccak.defaultLogSize(), 9);
                JstarkProver prover =
                        Jstark.prover(keccak.airs()).options(SMALL).build()) {
            assertThat(w.table(KeccakExample.TABLE).height()).isEqualTo(128);
            byte[] proof = prover.prove(w.tables()).bytes();
            VerifiedStatement statement = Jstark.verify(prover.verifyingKey(), Statement.ofTraces(w.tables()), proof);
            assertThat(statement).isNotNull();
        }
    }

    @Test
    void aTamperedCellIsNamedByTheDebugCheckAndRefusedByTheProver() {
        Example keccak = Examples.byName("keccak");
        try (Workload w = keccak.generate(6, 2)) {
            var trace = w.table(KeccakExample.TABLE).main();
            int column = KeccakAir.A_PRIME_PRIME + 4 * 7 + 2;
            trace.set(10, column, trace.get(10, column) ^ 1);
            try (JstarkProver debugging = Jstark.prover(keccak.airs())
                    .options(SMALL)
                    .debugChecks(true)
                    .build()) {
                assertThatThrownBy(() -> debugging.prove(w.tables()))
                        .isInstanceOf(ConstraintViolationException.class)
                        .hasMessageContaining("table 'keccak'")
                        .hasMessageContaining(
                                "constraint 'a_prime_prime[1][2][2] = chi(rho(pi(a_prime)))' fails at row 10");
            }
            // without debug checks the prover refuses as well, naming the same row, and writes no proof
            try (JstarkProver prover =
                    Jstark.prover(keccak.airs()).options(SMALL).build()) {
                assertThatThrownBy(() -> prover.prove(w.tables()))
                        .isInstanceOf(io.jstark.prover.exec.TableProvingException.class)
                        .cause()
                        .isInstanceOf(ConstraintViolationException.class)
                        .hasMessageContaining(
                                "constraint 'a_prime_prime[1][2][2] = chi(rho(pi(a_prime)))' fails at row 10");
            }
        }
    }
}
