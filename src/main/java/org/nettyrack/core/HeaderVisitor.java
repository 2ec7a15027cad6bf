package org.nettyrack.core;

/** Receives request header fields in the order the client sent them. */
@FunctionalInterface
public interface HeaderVisitor {
    void header(CharSequence name, CharSequence value);
}
