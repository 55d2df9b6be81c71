package io.jstark.cluster;

import io.jstark.cluster.wire.AuxReply;
import io.jstark.cluster.wire.Commitment;
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.OodReply;
import io.jstark.prover.ClaimedTable;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * A worker's answer to a round holds exactly the tables placed on its session, each once (in the aux round, those of
 * them with buses): an answer for a table placed elsewhere, or none for one placed there, is refused naming the worker
 * and the table before the coordinator reads any of its values, so that no worker's answer can stand in for another's.
 */
final class PlacedAnswers {
    private final List<ClaimedTable> tables;
    private final IntFunction<String> workerName;

    /**
     * The check of one proof's answers.
     *
     * @param tables the proof's tables (their names and definitions)
     * @param workerName a worker's address by its index, for the errors
     */
    PlacedAnswers(List<ClaimedTable> tables, IntFunction<String> workerName) {
        this.tables = List.copyOf(tables);
        this.workerName = workerName;
    }

    /** A main commit's or composition's answer: one commitment per placed table. */
    void require(SessionPlacement.Placed p, String round, Commitments answer) {
        require(p, round, answer.getCommitmentsList().stream().mapToInt(Commitment::getTable), i -> true);
    }

    /** An aux answer: one commitment per placed table with buses, none for a table without. */
    void require(SessionPlacement.Placed p, String round, AuxReply answer) {
        require(
                p,
                round,
                answer.getCommitmentsList().stream().mapToInt(Commitment::getTable),
                i -> tables.get(i).air().auxWidth() > 0);
    }

    /** An out-of-domain answer: one frame per placed table. */
    void require(SessionPlacement.Placed p, String round, OodReply answer) {
        require(p, round, answer.getFramesList().stream().mapToInt(Frame::getTable), i -> true);
    }

    /**
     * Checks the tables of one answer against the session's.
     *
     * @param answered the tables the answer holds, in its order
     * @param expected which of the placed tables the round answers for
     * @throws ClusterException naming the worker and the first table answered that is not expected of it (or answered
     *     twice), else the first expected table it left out
     */
    private void require(SessionPlacement.Placed p, String round, IntStream answered, IntPredicate expected) {
        boolean[] seen = new boolean[tables.size()];
        for (int i : answered.toArray()) {
            if (Arrays.stream(p.tables()).noneMatch(t -> t == i)) {
                throw refused(p, round + " answer holds " + describe(i) + ", which is not placed on it");
            }
            if (!expected.test(i)) {
                throw refused(p, round + " answer holds table '" + tables.get(i).name() + "', which has no buses");
            }
            if (seen[i]) {
                throw refused(p, round + " answer holds table '" + tables.get(i).name() + "' twice");
            }
            seen[i] = true;
        }
        for (int i : p.tables()) {
            if (expected.test(i) && !seen[i]) {
                throw refused(
                        p, round + " answer leaves out table '" + tables.get(i).name() + "', which is placed on it");
            }
        }
    }

    private String describe(int table) {
        return table >= 0 && table < tables.size()
                ? "table '" + tables.get(table).name() + "'"
                : "table index " + table + " (the proof has " + tables.size() + " tables)";
    }

    private ClusterException refused(SessionPlacement.Placed p, String what) {
        return new ClusterException("worker " + workerName.apply(p.worker()) + ": its " + what);
    }
}
