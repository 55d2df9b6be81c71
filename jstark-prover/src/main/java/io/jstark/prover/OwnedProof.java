package io.jstark.prover;

import io.jstark.crypto.transcript.Transcript;
import io.jstark.instrument.Phases;
import io.jstark.instrument.SpanLabels;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A proof of tables that a {@link TableOwningBackend} builds and holds: the prepass checks the shapes, commits the
 * preprocessed columns, lets the backend build the tables ({@code build_tables}) and checks the claims it reports
 * against the shapes before the transcript absorbs them; the rounds are {@link BatchedOpening}'s, as for traces.
 */
final class OwnedProof {
    private OwnedProof() {}

    static Proof prove(
            StarkProver prover,
            TableOwningBackend backend,
            List<TableDimensions> shapes,
            BackendMemory described,
            Phases phases) {
        Phases prepass = phases.nextSplit(SpanLabels.PREPASS);
        prepass.next(SpanLabels.CHECK_STATEMENT, "tables", shapes.size());
        prover.checkShapes(shapes);
        prepass.next(SpanLabels.PREPROCESSED_COMMIT);
        List<Preprocessing.Committed> preprocessed = prover.preprocessedOf(shapes);
        BackendMemory memory = prover.described(shapes, described);
        ProofContext context = prover.context(unclaimed(shapes), List.of(), preprocessed, memory);
        prepass.next(SpanLabels.BUILD_TABLES, "tables", shapes.size());
        try (TableOwningBackend.Session session = backend.openOwned(context)) {
            List<ClaimedTable> claimed = requireShapes(shapes, session.tables());
            prepass.next(SpanLabels.ABSORB_STATEMENT);
            Transcript transcript = prover.absorbStatement(claimed, preprocessed);
            try (BatchedOpening opening = new BatchedOpening(context.withTables(claimed), session)) {
                return opening.prove(phases, transcript);
            }
        }
    }

    /** The shapes as claims whose public inputs are not known yet. */
    private static List<ClaimedTable> unclaimed(List<TableDimensions> shapes) {
        List<ClaimedTable> out = new ArrayList<>(shapes.size());
        for (TableDimensions d : shapes) {
            out.add(new ClaimedTable(d.name(), d.air(), d.logHeight(), new long[0]));
        }
        return List.copyOf(out);
    }

    /**
     * The backend's claims, each of the shape asked for, with as many public inputs as its definition declares.
     *
     * @throws IllegalArgumentException naming the first table the backend built otherwise
     */
    static List<ClaimedTable> requireShapes(List<TableDimensions> shapes, List<ClaimedTable> claimed) {
        if (claimed.size() != shapes.size()) {
            throw new IllegalArgumentException(
                    "the backend built " + claimed.size() + " tables, the statement has " + shapes.size());
        }
        for (int i = 0; i < shapes.size(); i++) {
            TableDimensions shape = shapes.get(i);
            ClaimedTable table = claimed.get(i);
            if (!table.name().equals(shape.name())
                    || table.air() != shape.air()
                    || table.logHeight() != shape.logHeight()
                    || table.publicInputs().length != shape.air().publicInputs().size()) {
                throw new IllegalArgumentException("table " + i + ": the backend built '" + table.name() + "' ("
                        + table.air().name() + ", 2^" + table.logHeight() + " rows, "
                        + Arrays.toString(table.publicInputs()) + " public inputs), the statement has '" + shape.name()
                        + "' (" + shape.air().name() + ", 2^" + shape.logHeight() + " rows, "
                        + shape.air().publicInputs().size() + " public inputs)");
            }
        }
        return List.copyOf(claimed);
    }
}
