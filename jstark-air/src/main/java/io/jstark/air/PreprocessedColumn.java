package io.jstark.air;

import java.util.function.LongUnaryOperator;

/**
 * A fixed column whose value at each row is a function of the row index (a range 0..2^16-1, the
 * operands of a bitwise table). Both sides know it; its commitment is computed once and pinned in the
 * verifying key.
 *
 * @param name the column's name
 * @param valueAtRow its value at each row index, canonical field elements
 */
public record PreprocessedColumn(String name, LongUnaryOperator valueAtRow) {}
