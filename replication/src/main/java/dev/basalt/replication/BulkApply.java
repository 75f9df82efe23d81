package dev.basalt.replication;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFWriter;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.SailConnection;

import dev.basalt.sail.BasaltStoreConnection;
import dev.basalt.sail.load.TransactionLoad;

/**
 * Adds a large change set's statements to the local store through the Basalt store's bulk loader
 * pipeline ({@link BasaltStoreConnection#addBulk} with a {@link TransactionLoad} of an N-Quads
 * stream), as one server adds an upload, instead of statement by statement. Only statements that
 * N-Quads carries unchanged through the loader qualify ({@link #eligible}): none with a blank node
 * (the loader gives blank nodes labels of its own, scoped to the load, and replicas must keep the
 * labels of the change set), none with a triple term, and no IRI outside printable ASCII or with a
 * character an N-Triples IRI may not hold.
 *
 * <p>The statements are written as N-Quads into a pipe by a writer thread of this class's own while
 * the loader reads the other end; {@link #add} joins that thread before it returns. A failure leaves
 * the transaction able only to roll back; the caller then applies the same change sets statement by
 * statement (the loader may refuse what a statement-by-statement add accepts, an IRI outside the
 * N-Triples grammar for example).
 *
 * <p>Thread rules: {@link #add} is called by the thread that owns the connection (the applier's).
 */
final class BulkApply {
    /** Change sets adding fewer statements are applied statement by statement. */
    static final int MIN_STATEMENTS = 20_000;

    private BulkApply() {
    }

    /** True if {@code added} is large enough and every statement goes through the loader unchanged. */
    static boolean eligible(Collection<Statement> added) {
        if (added.size() < MIN_STATEMENTS) {
            return false;
        }
        for (Statement st : added) {
            if (!plain(st.getSubject()) || !plain(st.getPredicate()) || !plain(st.getObject())
                    || !plain(st.getContext())) {
                return false;
            }
        }
        return true;
    }

    /**
     * True for a value N-Quads carries through Rio's writer and the loader's parser unchanged: no
     * blank node or triple term, and IRIs (a literal's datatype included) of printable ASCII without
     * the characters an N-Triples IRIREF may not hold (Rio's writer encodes some of those instead of
     * refusing them, which would change the IRI).
     */
    private static boolean plain(Value v) {
        if (v == null) {
            return true;
        }
        if (v.isIRI()) {
            return plainIri(v.stringValue());
        }
        if (v.isLiteral()) {
            return plainIri(((Literal) v).getDatatype().stringValue());
        }
        return false;
    }

    private static boolean plainIri(String iri) {
        for (int i = 0; i < iri.length(); i++) {
            char ch = iri.charAt(i);
            if (ch <= 0x20 || ch >= 0x7f || "<>\"{}|^`\\".indexOf(ch) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds {@code added} in {@code c}'s open transaction through the bulk loader.
     *
     * @return false, having added nothing, when the bulk path cannot be taken now
     */
    static boolean add(SailConnection c, Collection<Statement> added, Path temp) {
        if (!(c instanceof BasaltStoreConnection basalt)) {
            return false;
        }
        AtomicReference<Exception> writeFailure = new AtomicReference<>();
        PipedInputStream in = new PipedInputStream(1 << 20);
        Thread writer;
        try {
            PipedOutputStream out = new PipedOutputStream(in);
            writer = new Thread(() -> write(added, out, writeFailure), "basalt-bulk-apply-writer");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writer.setDaemon(true);
        writer.start();
        boolean done;
        try {
            done = basalt.addBulk(TransactionLoad.ofStream("a replicated change set", in, RDFFormat.NQUADS,
                    "urn:basalt:replicated", null, Set.of(), temp));
        } finally {
            try {
                in.close(); // a writer still writing (the bulk path not taken) fails and ends
            } catch (IOException ignored) {
                // nothing was left to release
            }
            try {
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (done && writeFailure.get() != null) {
            throw new IllegalStateException("writing a change set for the bulk loader failed: "
                    + writeFailure.get().getMessage(), writeFailure.get());
        }
        return done;
    }

    private static void write(Collection<Statement> added, PipedOutputStream out, AtomicReference<Exception> failure) {
        try (Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            RDFWriter rdf = Rio.createWriter(RDFFormat.NQUADS, w);
            rdf.startRDF();
            for (Statement st : added) {
                rdf.handleStatement(st);
            }
            rdf.endRDF();
        } catch (IOException | RuntimeException e) {
            failure.set(e);
        }
    }
}
