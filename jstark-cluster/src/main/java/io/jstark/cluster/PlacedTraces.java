package io.jstark.cluster;

import io.jstark.air.AirDigest;
import io.jstark.air.debug.ConstraintChecker;
import io.jstark.air.program.Uniforms;
import io.jstark.air.trace.CanonicalCells;
import io.jstark.air.trace.InvalidTraceException;
import io.jstark.air.trace.Preprocessed;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.TableClaim;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The traces of the tables placed on a worker for one proof: built from the statement's recipe (the tables placed
 * elsewhere dropped at once), or allocated empty and filled by the coordinator's upload. Each must match its claim.
 */
final class PlacedTraces implements AutoCloseable {
    private final TableTrace[] traces;
    private final long[] uploadedRows;
    /** Every trace the recipe built (the unplaced ones closed at once); null when they are uploaded. */
    private final List<TableTrace> built;

    private PlacedTraces(TableTrace[] traces, List<TableTrace> built) {
        this.traces = traces;
        this.uploadedRows = new long[traces.length];
        this.built = built;
    }

    /**
     * The traces of {@code tables}: the recipe's, checked against their claims, or empty ones for an upload.
     *
     * @param statement every table's claim, in the proof's order
     * @param dimensions every table's dimensions, in the proof's order
     * @param tables the proof indices placed here, ascending
     * @param pool checks a large recipe-built table's cells
     * @throws ClusterException when the recipe builds another statement than the one claimed, or a placed table with a
     *     cell that is not a field element
     */
    static PlacedTraces of(
            OpenRequest request,
            TableSource source,
            List<TableClaim> statement,
            List<TableDimensions> dimensions,
            int[] tables,
            WorkerPool pool) {
        TableTrace[] traces = new TableTrace[tables.length];
        List<TableTrace> built = null;
        try {
            if (request.hasRecipe()) {
                built = build(request, source, statement);
                if (built.size() != statement.size()) {
                    throw new ClusterException("proof " + request.getProofId() + ": the recipe of '" + source.name()
                            + "' built " + built.size() + " tables, the statement has " + statement.size());
                }
                for (int l = 0; l < tables.length; l++) {
                    traces[l] = built.get(tables[l]);
                    requireClaimed(traces[l], statement.get(tables[l]), !request.getReportClaims());
                    requireFieldElements(traces[l], request, source, pool);
                }
                dropUnplaced(built, tables);
            } else {
                for (int l = 0; l < tables.length; l++) {
                    traces[l] = emptyTrace(dimensions.get(tables[l]), statement.get(tables[l]));
                }
            }
            return new PlacedTraces(traces, built);
        } catch (RuntimeException | Error e) {
            close(traces, built);
            throw e;
        }
    }

    /**
     * The source's traces for the recipe's parameters, once the shapes it says they have are the statement's (so the
     * worker allocates no other tables than it planned); a source that rejects the parameters, fails or returns no
     * trace for a table is refused naming the proof and the source.
     */
    private static List<TableTrace> build(OpenRequest request, TableSource source, List<TableClaim> statement) {
        byte[] parameters = request.getRecipe().getParameters().toByteArray();
        String refusal = refusal(request, source);
        List<TableTrace> built;
        try {
            requireStatement(source.shapes(parameters), statement, refusal);
            built = new ArrayList<>(source.build(parameters, RamAllocator.shared()));
        } catch (ClusterException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ClusterException(refusal + e.getMessage(), e);
        }
        if (built.contains(null)) {
            close(new TableTrace[0], built);
            throw new ClusterException(refusal + "its recipe returned no trace for some of the tables");
        }
        return built;
    }

    /** The recipe's shapes must be the statement's, table by table: name, definition and height. */
    private static void requireStatement(List<TableDimensions> shapes, List<TableClaim> statement, String refusal) {
        if (shapes.size() != statement.size()) {
            throw new ClusterException(
                    refusal + "its recipe has " + shapes.size() + " tables, the statement " + statement.size());
        }
        for (int i = 0; i < shapes.size(); i++) {
            TableDimensions shape = shapes.get(i);
            TableClaim claim = statement.get(i);
            if (!shape.name().equals(claim.getName())
                    || !shape.air().name().equals(claim.getAirName())
                    || shape.logHeight() != claim.getLogHeight()) {
                throw new ClusterException(refusal + "its recipe's table " + i + " is '" + shape.name() + "' ("
                        + shape.air().name() + ", 2^" + shape.logHeight() + " rows), the statement's '"
                        + claim.getName() + "' (" + claim.getAirName() + ", 2^" + claim.getLogHeight() + " rows)");
            }
        }
    }

    private static TableTrace emptyTrace(TableDimensions d, TableClaim claim) {
        Matrix main = Matrix.allocate(
                RamAllocator.shared(),
                d.name() + "/main (uploaded)",
                d.rows(),
                d.air().mainWidth());
        return new TableTrace(d.name(), d.air(), main, Wire.publicInputs(claim));
    }

    /** How a refusal of the recipe's work begins: the proof and the source. */
    private static String refusal(OpenRequest request, TableSource source) {
        return "proof " + request.getProofId() + ": table source '" + source.name() + "': ";
    }

    /**
     * Every cell of a table the recipe built must be a field element: the coordinator never holds a recipe's trace, so
     * its cells are checked here, where it is built.
     *
     * @throws ClusterException naming the proof and the source, caused by the {@link InvalidTraceException} that names
     *     the table, the cell and its value
     */
    private static void requireFieldElements(
            TableTrace trace, OpenRequest request, TableSource source, WorkerPool pool) {
        try {
            CanonicalCells.require(trace, pool);
        } catch (InvalidTraceException e) {
            throw new ClusterException(refusal(request, source) + "its recipe built " + e.getMessage(), e);
        }
    }

    /** The recipe's table must be the one claimed; its public inputs too where the coordinator claims them. */
    private static void requireClaimed(TableTrace trace, TableClaim claim, boolean publicInputsClaimed) {
        if (!trace.name().equals(claim.getName())
                || trace.logHeight() != claim.getLogHeight()
                || publicInputsClaimed && !Arrays.equals(trace.publicInputs(), Wire.publicInputs(claim))) {
            throw new ClusterException(
                    "table '" + claim.getName() + "': the recipe built '" + trace.name() + "' of 2^" + trace.logHeight()
                            + " rows and other public inputs than the coordinator's 2^" + claim.getLogHeight());
        }
        // the definition the trace is proven with must be the one whose digest the coordinator sent
        if (!trace.air().name().equals(claim.getAirName())
                || !Arrays.equals(
                        AirDigest.of(trace.air()), claim.getAirDigest().toByteArray())) {
            throw new ClusterException("table '" + claim.getName() + "': the recipe built it with definition '"
                    + trace.air().name() + "', not the coordinator's '" + claim.getAirName() + "' of its digest");
        }
    }

    private static void dropUnplaced(List<TableTrace> built, int[] placed) {
        for (int i = 0; i < built.size(); i++) {
            if (Arrays.binarySearch(placed, i) < 0) {
                built.get(i).main().close();
            }
        }
    }

    /**
     * Checks every placed table's constraints on its trace, row by row (the prover's debug checks, where the trace
     * lives); the buses across tables are checked by their sums after the aux round.
     *
     * @throws io.jstark.air.debug.ConstraintViolationException naming the table, the constraint and the first row
     */
    void checkConstraints() {
        for (TableTrace t : traces) {
            try (Matrix pre = Preprocessed.generate(t.air(), RamAllocator.shared())) {
                ConstraintChecker.check(t.name(), t.air(), t.main(), pre, null, Uniforms.of(t.publicInputs()));
            }
        }
    }

    /** {@return the trace of the {@code local}-th placed table} */
    TableTrace get(int local) {
        return traces[local];
    }

    /** Writes rows of an uploaded table's trace, column by column. */
    void upload(int local, int firstRow, int rows, long[] cells) {
        Matrix main = traces[local].main();
        int columns = main.columns();
        if (cells.length != (long) rows * columns || firstRow < 0 || firstRow + rows > main.rows()) {
            throw new ClusterException("table '" + traces[local].name() + "': a chunk of rows [" + firstRow + ", "
                    + (firstRow + rows) + ") with " + cells.length + " cells does not fit " + main.rows() + " rows x "
                    + columns + " columns");
        }
        for (int c = 0; c < columns; c++) {
            main.writeColumn(c, firstRow, cells, c * rows, rows);
        }
        uploadedRows[local] += rows;
    }

    /**
     * Requires every row of an uploaded table's trace to be in (a recipe's trace always is).
     *
     * @throws ClusterException naming the table and the rows it has
     */
    void requireComplete(int local) {
        if (built == null && uploadedRows[local] != traces[local].height()) {
            throw new ClusterException("table '" + traces[local].name() + "': " + uploadedRows[local] + " of "
                    + traces[local].height() + " rows uploaded before the main commit");
        }
    }

    @Override
    public void close() {
        close(traces, built);
    }

    private static void close(TableTrace[] traces, List<TableTrace> built) {
        for (TableTrace t : built != null ? built.toArray(TableTrace[]::new) : traces) {
            if (t != null && !t.main().isClosed()) {
                t.main().close();
            }
        }
    }
}
