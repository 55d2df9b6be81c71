package io.jstark.air;

import io.jstark.air.expr.Expr;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * Describes a table: declare columns and public inputs, then state constraints over them. Degrees are
 * derived from the expressions.
 *
 * <pre>{@code
 * AirBuilder b = Air.builder("fibonacci");
 * Expr.MainCell a = b.main("a"), c = b.main("b");
 * b.transition("a' = b", a.next().sub(c));
 * b.transition("b' = a + b", c.next().sub(a.add(c)));
 * b.first("a starts at a0", a.sub(b.publicInput("a0")));
 * Air fib = b.build();
 * }</pre>
 */
public final class AirBuilder {
    private final String name;
    private final List<String> mainColumns = new ArrayList<>();
    private final List<PreprocessedColumn> preprocessed = new ArrayList<>();
    private final List<PeriodicColumn> periodic = new ArrayList<>();
    private final List<String> publicInputs = new ArrayList<>();
    private final List<Constraint> constraints = new ArrayList<>();
    private final List<BusInteraction> interactions = new ArrayList<>();
    private final Set<String> columnNames = new HashSet<>();
    private int fixedLogHeight = -1;
    private final Expr.Owner owner;

    AirBuilder(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("table name must not be blank");
        }
        this.name = name;
        this.owner = new Expr.Owner(name);
    }

    /**
     * Declares a main-trace column: the prover fills it, one value per row.
     *
     * @param columnName the column's name, unique among this table's columns
     * @return its current-row cell ({@code next()} reads the next row)
     * @throws IllegalArgumentException when the name is blank or already names a column of this table
     */
    public Expr.MainCell main(String columnName) {
        claim(columnName);
        mainColumns.add(columnName);
        return new Expr.MainCell(mainColumns.size() - 1, 0, owner);
    }

    /**
     * Declares several main columns at once, in this order.
     *
     * @param columnNames the columns' names
     * @return their current-row cells, in the same order
     * @throws IllegalArgumentException when the name is blank or already names a column of this table
     */
    public Expr.MainCell[] main(String... columnNames) {
        Expr.MainCell[] cells = new Expr.MainCell[columnNames.length];
        for (int i = 0; i < columnNames.length; i++) {
            cells[i] = main(columnNames[i]);
        }
        return cells;
    }

    /**
     * Declares {@code count} main columns named prefix0, prefix1, ...
     *
     * @param prefix the names' prefix
     * @param count how many, 0 or more
     * @return their current-row cells, in index order
     * @throws IllegalArgumentException when the name is blank or already names a column of this table
     */
    public Expr.MainCell[] mainRange(String prefix, int count) {
        Expr.MainCell[] cells = new Expr.MainCell[count];
        for (int i = 0; i < count; i++) {
            cells[i] = main(prefix + i);
        }
        return cells;
    }

    /**
     * Declares a preprocessed column whose value at row i is {@code valueAtRow(i)} (must return canonical
     * field elements). Tables with preprocessed columns have a fixed height: see {@link #fixedHeight}.
     * The values are committed once per option set and pinned by the verifying key.
     *
     * @param columnName the column's name, unique among this table's columns
     * @param valueAtRow the value at each row, 0 .. height - 1
     * @return its current-row cell
     * @throws IllegalArgumentException when the name is blank or already names a column of this table
     */
    public Expr.PreprocessedCell preprocessed(String columnName, LongUnaryOperator valueAtRow) {
        claim(columnName);
        preprocessed.add(new PreprocessedColumn(columnName, valueAtRow));
        return new Expr.PreprocessedCell(preprocessed.size() - 1, 0, owner);
    }

    /**
     * Fixes the table height to 2^logHeight (required with preprocessed columns).
     *
     * @param logHeight log2 of the rows, 1..30
     * @return this builder
     * @throws IllegalArgumentException when {@code logHeight} is out of 1..30
     */
    public AirBuilder fixedHeight(int logHeight) {
        if (logHeight < 1 || logHeight > 30) {
            throw new IllegalArgumentException(
                    "table '" + name + "': fixed height 2^" + logHeight + " out of range 2^1..2^30");
        }
        this.fixedLogHeight = logHeight;
        return this;
    }

    /**
     * Declares a periodic column: row i holds {@code values[i % period]}, known to prover and verifier, never committed.
     *
     * @param columnName the column's name, unique among this table's columns
     * @param values one period, a power-of-two count of canonical field elements
     * @return the column's cell
     * @throws IllegalArgumentException when the name is taken or blank, the period is not a power of two, or a value is
     *     not canonical
     */
    public Expr.Periodic periodic(String columnName, long... values) {
        claim(columnName);
        periodic.add(new PeriodicColumn(columnName, values));
        return new Expr.Periodic(periodic.size() - 1, owner);
    }

    /**
     * Declares a public input of the table: a value the statement names and the verifier knows.
     *
     * @param inputName the input's name, unique among this table's inputs
     * @return the input's expression, in declaration order (the order of {@code TableTrace}'s public inputs)
     * @throws IllegalArgumentException when the name is declared twice
     */
    public Expr.PublicInput publicInput(String inputName) {
        if (publicInputs.contains(inputName)) {
            throw new IllegalArgumentException("table '" + name + "': public input '" + inputName + "' declared twice");
        }
        publicInputs.add(inputName);
        return new Expr.PublicInput(publicInputs.size() - 1, owner);
    }

    /**
     * Constraint on every row but the last (reads the next row).
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param expr the expression that must be zero there, base-field valued
     * @return this builder
     */
    public AirBuilder transition(String constraintName, Expr expr) {
        return constrain(constraintName, expr, ConstraintDomain.TRANSITION);
    }

    /**
     * Constraint on every row but the last {@code exemptRows}.
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param expr the expression that must be zero there, base-field valued
     * @param exemptRows the rows at the end it skips, at least 1
     * @return this builder
     */
    public AirBuilder transition(String constraintName, Expr expr, int exemptRows) {
        return constrain(constraintName, expr, new ConstraintDomain.Transition(exemptRows));
    }

    /**
     * Constraint on every row, the last included (a next-row reference there wraps to row 0).
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param expr the expression that must be zero there, base-field valued
     * @return this builder
     */
    public AirBuilder everyRow(String constraintName, Expr expr) {
        return constrain(constraintName, expr, ConstraintDomain.EVERY_ROW);
    }

    /**
     * Constraint on the first row.
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param expr the expression that must be zero there, base-field valued
     * @return this builder
     */
    public AirBuilder first(String constraintName, Expr expr) {
        return constrain(constraintName, expr, ConstraintDomain.FIRST_ROW);
    }

    /**
     * Constraint on the last row.
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param expr the expression that must be zero there, base-field valued
     * @return this builder
     */
    public AirBuilder last(String constraintName, Expr expr) {
        return constrain(constraintName, expr, ConstraintDomain.LAST_ROW);
    }

    /**
     * Constraint on one row, counted from the start.
     *
     * @param constraintName the name errors and debug checks report (blank: "constraint #i")
     * @param row the row, 0 .. height - 1
     * @param expr the expression that must be zero there, base-field valued
     * @return this builder
     */
    public AirBuilder atRow(String constraintName, int row, Expr expr) {
        return constrain(constraintName, expr, new ConstraintDomain.Boundary(row, false));
    }

    private AirBuilder constrain(String constraintName, Expr expr, ConstraintDomain domain) {
        if (constraintName == null || constraintName.isBlank()) {
            constraintName = "constraint #" + constraints.size();
        }
        constraints.add(new Constraint(constraintName, expr, domain));
        return this;
    }

    /**
     * Sends {@code values} on {@code bus}, {@code multiplicity} times per row: across all tables of a proof, every
     * tuple sent must be received as often.
     *
     * @param bus the bus
     * @param multiplicity how often each row sends, a base-field expression (0 for rows that send nothing)
     * @param values the tuple, {@code bus.arity()} expressions
     * @return this builder
     * @throws IllegalArgumentException when the tuple's size is not the bus's arity
     */
    public AirBuilder send(Bus bus, Expr multiplicity, Expr... values) {
        interactions.add(new BusInteraction(bus, BusInteraction.Direction.SEND, multiplicity, List.of(values)));
        return this;
    }

    /**
     * Receives {@code values} from {@code bus}, {@code multiplicity} times per row.
     *
     * @param bus the bus
     * @param multiplicity how often each row receives, a base-field expression
     * @param values the tuple, {@code bus.arity()} expressions
     * @return this builder
     * @throws IllegalArgumentException when the tuple's size is not the bus's arity
     */
    public AirBuilder receive(Bus bus, Expr multiplicity, Expr... values) {
        interactions.add(new BusInteraction(bus, BusInteraction.Direction.RECEIVE, multiplicity, List.of(values)));
        return this;
    }

    /**
     * Builds the definition, checking every expression against this table.
     *
     * @return the table definition
     * @throws IllegalArgumentException when no main column is declared, preprocessed columns lack a fixed height, a
     *     constraint is extension-valued, or an expression uses a cell, column or input not declared on this builder
     *     (a cell of another table's builder is named with both tables)
     */
    public Air build() {
        if (mainColumns.isEmpty()) {
            // every table commits a main trace (its root is what ties it into the proof)
            throw new IllegalArgumentException("table '" + name + "' declares no main columns");
        }
        if (!preprocessed.isEmpty() && fixedLogHeight < 0) {
            throw new IllegalArgumentException(
                    "table '" + name + "' has preprocessed columns: declare fixedHeight(logHeight)");
        }
        Validator validator = new Validator();
        for (Constraint c : constraints) {
            validator.check(c.expr(), "constraint '" + c.name() + "'");
            if (c.expr().isExtension()) {
                throw new IllegalArgumentException(
                        "table '" + name + "', constraint '" + c.name() + "' is extension-valued");
            }
        }
        for (BusInteraction i : interactions) {
            validator.check(i.multiplicity(), "multiplicity on bus " + i.bus().name());
            for (Expr v : i.values()) {
                validator.check(v, "value on bus " + i.bus().name());
            }
        }
        return new Air(
                name, mainColumns, preprocessed, fixedLogHeight, periodic, publicInputs, constraints, interactions);
    }

    private void claim(String columnName) {
        if (columnName == null || columnName.isBlank()) {
            throw new IllegalArgumentException("table '" + name + "': column name must not be blank");
        }
        if (!columnNames.add(columnName)) {
            throw new IllegalArgumentException("table '" + name + "': column '" + columnName + "' declared twice");
        }
    }

    /** Checks that user expressions reference only declared columns and no reserved leaves. */
    private final class Validator {
        private final Map<Expr, Boolean> seen = new IdentityHashMap<>();

        void check(Expr e, String where) {
            if (seen.put(e, Boolean.TRUE) != null) {
                return;
            }
            switch (e) {
                case Expr.MainCell c ->
                    own(c.owner(), where, "main column #" + c.column())
                            .require(c.column() < mainColumns.size(), where, "main column " + c.column());
                case Expr.PreprocessedCell c ->
                    own(c.owner(), where, "preprocessed column #" + c.column())
                            .require(c.column() < preprocessed.size(), where, "preprocessed column " + c.column());
                case Expr.Periodic p ->
                    own(p.owner(), where, "periodic column #" + p.index())
                            .require(p.index() < periodic.size(), where, "periodic column " + p.index());
                case Expr.PublicInput p ->
                    own(p.owner(), where, "public input #" + p.index())
                            .require(p.index() < publicInputs.size(), where, "public input " + p.index());
                case Expr.Const c -> {}
                case Expr.AuxCell c -> reserved(where, "aux cell");
                case Expr.Challenge c -> reserved(where, "challenge");
                case Expr.BusSum b -> reserved(where, "bus sum");
                case Expr.Coefficient c -> reserved(where, "composition coefficient");
                case Expr.Divisor d -> reserved(where, "divisor");
                case Expr.Add a -> {
                    check(a.left(), where);
                    check(a.right(), where);
                }
                case Expr.Sub s -> {
                    check(s.left(), where);
                    check(s.right(), where);
                }
                case Expr.Mul m -> {
                    check(m.left(), where);
                    check(m.right(), where);
                }
                case Expr.Neg n -> check(n.inner(), where);
            }
        }

        /** A leaf declared by another table's builder names a column of that table, not of this one. */
        private Validator own(Expr.Owner leafOwner, String where, String what) {
            if (leafOwner != null && leafOwner != owner) {
                throw new IllegalArgumentException(
                        "table '" + name + "', " + where + ": " + what + " comes from the builder of " + leafOwner
                                + ", not of table '" + name + "'; declare the column on this table's builder");
            }
            return this;
        }

        private void require(boolean ok, String where, String what) {
            if (!ok) {
                throw new IllegalArgumentException(
                        "table '" + name + "', " + where + ": " + what + " is not declared in this table");
            }
        }

        private void reserved(String where, String what) {
            throw new IllegalArgumentException("table '" + name + "', " + where + ": " + what
                    + " leaves are reserved for the prover (LogUp and composition)");
        }
    }
}
