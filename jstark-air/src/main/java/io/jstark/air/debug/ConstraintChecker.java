package io.jstark.air.debug;

import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.ConstraintDomain;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import java.util.ArrayList;
import java.util.List;

/**
 * The debug check: evaluates a table's constraints on its own trace, row by row, and names the first
 * failing row and constraint — instead of a proof that silently fails to verify.
 */
public final class ConstraintChecker {
    private static final int BATCH = 1024;

    private ConstraintChecker() {}

    /**
     * Checks the user constraints, and the LogUp constraints too when {@code aux} is given.
     *
     * @param table the table's name, for the message
     * @param air its definition
     * @param main its main trace
     * @param preprocessed its preprocessed columns, or null when it has none
     * @param aux its LogUp aux trace, or null to check the user constraints only
     * @param uniforms the public inputs and challenges the constraints read
     * @throws ConstraintViolationException at the lowest failing row (ties: the first constraint)
     */
    // the prover's and the examples' debug check: the uniforms' package is exported to them, and only they build
    // uniforms
    @SuppressWarnings("exports")
    public static void check(String table, Air air, Matrix main, Matrix preprocessed, Matrix aux, Uniforms uniforms) {
        List<Constraint> constraints = aux == null ? air.userConstraints() : air.constraints();
        if (constraints.isEmpty()) {
            return;
        }
        int rows = main.rows();
        List<Expr> exprs = new ArrayList<>(constraints.size());
        for (Constraint c : constraints) {
            exprs.add(c.expr());
        }
        ConstraintProgram.Bound program = ConstraintProgram.compile(exprs).bind(uniforms);
        ConstraintProgram.Workspace ws = program.newWorkspace(BATCH);
        TraceBatchSource source = new TraceBatchSource(air, main, preprocessed, aux);
        int[] boundaryRows = new int[constraints.size()];
        int[] lastTransitionRow = new int[constraints.size()];
        for (int k = 0; k < constraints.size(); k++) {
            switch (constraints.get(k).domain()) {
                case ConstraintDomain.Boundary b -> {
                    boundaryRows[k] = b.resolve(rows);
                    lastTransitionRow[k] = -1;
                }
                case ConstraintDomain.Transition t -> {
                    boundaryRows[k] = -1;
                    lastTransitionRow[k] = rows - 1 - t.exemptRows();
                }
            }
        }
        for (int from = 0; from < rows; from += BATCH) {
            int len = Math.min(BATCH, rows - from);
            program.evaluate(ws, source, from, len);
            for (int r = 0; r < len; r++) {
                int row = from + r;
                for (int k = 0; k < constraints.size(); k++) {
                    boolean applies = boundaryRows[k] >= 0 ? boundaryRows[k] == row : row <= lastTransitionRow[k];
                    if (!applies) {
                        continue;
                    }
                    long v0 = ws.output(k, 0)[r];
                    boolean ext = ws.outputIsExtension(k);
                    long v1 = ext ? ws.output(k, 1)[r] : 0;
                    long v2 = ext ? ws.output(k, 2)[r] : 0;
                    if (v0 != 0 || v1 != 0 || v2 != 0) {
                        throw new ConstraintViolationException(
                                table, constraints.get(k).name(), row, new Ext3(v0, v1, v2).toString());
                    }
                }
            }
        }
    }
}
