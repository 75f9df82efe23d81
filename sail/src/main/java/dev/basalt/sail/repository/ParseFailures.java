package dev.basalt.sail.repository;

import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.sail.SailException;

/**
 * Tells a parser's failure on malformed input from a failure of the store during an add, and turns
 * the former into an {@link RDFParseException} that names the format and what the parser met. A
 * store failure reaches the add through the parser's handler, as a {@link RepositoryException}, a
 * {@link SailException} or an {@link RDFHandlerException}, or is thrown by the repository, the SAIL
 * or Basalt's code; an exception thrown inside RDF4J's parsers is the input's. Thread-safe: stateless.
 */
final class ParseFailures {
    private ParseFailures() {
    }

    /**
     * True if {@code e} is not a parser's failure: a store failure raised through the handler (a repository,
     * SAIL or handler exception anywhere in its causes), or an exception whose stack reaches code of the
     * repository, the SAIL or Basalt before it reaches a parser (a closed connection, a store refusing the
     * write). Only an exception thrown inside RDF4J's parsers (or by what they call, such as the value
     * factory) is the input's; when in doubt it is the store's, so a real error is never hidden as a 400.
     */
    static boolean fromStore(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RepositoryException || t instanceof SailException || t instanceof RDFHandlerException) {
                return true;
            }
        }
        for (StackTraceElement frame : e.getStackTrace()) {
            String c = frame.getClassName();
            if (c.startsWith("org.eclipse.rdf4j.rio.")) {
                return false;
            }
            if (c.startsWith("org.eclipse.rdf4j.repository.") || c.startsWith("org.eclipse.rdf4j.sail.")
                    || c.startsWith("dev.basalt.")) {
                return true;
            }
        }
        return true;
    }

    /** The parse error for a parser's unchecked or I/O failure on malformed input. */
    static RDFParseException malformed(RDFFormat format, Exception e) {
        String what = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        RDFParseException parse = new RDFParseException("malformed " + (format == null ? "RDF" : format.getName())
                + " upload, the parser failed on it (" + what + "); check the data and its declared format and charset");
        parse.initCause(e);
        return parse;
    }
}
