package io.jstark.prover;

import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;

/** The steps and buffers of a phase commitment over several tables ({@link PhaseCommitment}), one per class. */
final class PhaseClassBuffers {
    private PhaseClassBuffers() {}

    /** One step per class of a phase tree over {@code members} (none when one table is the phase). */
    static int[] steps(BufferLedger ledger, LiftedDomain domain, String phase, ProofPhase pass, int[] members) {
        if (members.length == 0) {
            return new int[0];
        }
        PhaseTree rule = new PhaseTree(domain, members);
        if (rule.single()) {
            return new int[0];
        }
        int[] out = new int[rule.classes().size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = ledger.step(phase + "_phase_class_" + c, pass);
        }
        return out;
    }

    /**
     * PhaseCommitment.commit's buffers: per class its rows (previous class value, the class's block digests) and
     * their tree, each live until the next class's are made; the top class's until the queries.
     */
    static void describe(
            BufferLedger ledger,
            LiftedDomain domain,
            String phase,
            int[] classSteps,
            int[] members,
            int p,
            int queries) {
        if (classSteps.length == 0) {
            return;
        }
        PhaseTree rule = new PhaseTree(domain, members);
        for (int c = 0; c < classSteps.length; c++) {
            int until = c + 1 < classSteps.length ? classSteps[c + 1] : queries;
            long leaves = 1L << rule.logBlocksOfClass(c);
            int columns = PhaseCommitment.classColumns(c > 0, rule.classes().get(c).length);
            ledger.matrix(phase + "-class-" + c, MatrixRole.MERKLE_TREE, leaves, columns, classSteps[c], until);
            ledger.heap(
                    "class rows scratch",
                    PhaseCommitment.classRowsScratchBytes(leaves, columns, p),
                    classSteps[c],
                    classSteps[c]);
            ledger.tree(phase + "-class-tree-" + c, MatrixRole.MERKLE_TREE, leaves, 1, classSteps[c], until);
            ledger.heap("merkle scratch", MerkleTree.scratchBytes(leaves, columns, 1, p), classSteps[c], classSteps[c]);
        }
    }
}
