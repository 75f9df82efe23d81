package dev.basalt.sail.repository;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.BasaltStoreConnection;
import dev.basalt.sail.load.LoadException;
import dev.basalt.sail.load.TransactionLoad;

/**
 * Decides whether a {@link BasaltRepository} connection's {@code add(InputStream|File|URL, ...)}
 * takes the bulk loader's pipeline ({@link TransactionLoad} through
 * {@link BasaltStoreConnection#addBulk}) and runs it: for N-Triples and N-Quads read straight into
 * a Basalt store (not through a wrapping sail such as an inferencer), with at most one context
 * given and the parser's default settings (see {@link #NOT_APPLIED}). Everything else, and a transaction that cannot
 * write through now, is left to RDF4J's parser ({@code fallback}).
 *
 * <p>The bulk add is part of the connection's transaction: inside {@code begin()}/{@code commit()}
 * it commits or rolls back with it; otherwise it is its own transaction. Malformed input is an
 * {@link RDFParseException} whose message starts with {@code input:line:}, the input being the file,
 * the "request body" of an RDF4J Server upload or else the "input stream"; the add then leaves the
 * store unchanged (its own transaction is rolled back; an explicit one can only be rolled back).
 *
 * <p>A connection of a sail stacked on a Basalt store that is an {@link UploadTarget} (a replicated
 * store) is handed N-Triples and N-Quads streams under the same conditions, to take whole or decline.
 *
 * <p>It runs on the thread of the connection that adds, under that connection's thread rules.
 */
final class BulkAdds {
    /** What the connection runs: RDF4J's own add. */
    interface Fallback {
        void run() throws IOException;
    }

    /** RDF4J's own add of a stream (the one given, or the buffered stream that replaced it). */
    interface StreamFallback {
        void run(InputStream in) throws IOException;
    }

    /** The connection's transaction handling, as {@code AbstractRepositoryConnection} provides it. */
    interface Transactions {
        /** Begins a transaction unless one is active; true if it did. */
        boolean startLocal();

        /** Commits the transaction if {@code local} (begun by {@link #startLocal()}). */
        void commitLocal(boolean local);

        /** Rolls the transaction back if {@code local}. */
        void rollbackLocal(boolean local);
    }

    private final SailConnection sail;
    private final BasaltStore store;
    /** The connection of a sail stacked on a Basalt store that takes uploads itself, else null. */
    private final UploadTarget uploads;
    private final ParserConfig parserConfig;

    private BulkAdds(SailConnection sail, BasaltStore store, ParserConfig parserConfig) {
        this.sail = sail;
        this.store = store;
        this.uploads = store == null && sail instanceof UploadTarget t ? t : null;
        this.parserConfig = parserConfig;
    }

    /**
     * The bulk adds of a repository connection; all fall back when its sail is not a Basalt store
     * itself, except stream adds to a connection that is an {@link UploadTarget}.
     */
    static BulkAdds of(BasaltRepository repository, SailConnection sail, ParserConfig parserConfig) {
        boolean basalt = repository.getSail() instanceof BasaltStore && sail instanceof BasaltStoreConnection;
        return new BulkAdds(sail, basalt ? (BasaltStore) repository.getSail() : null, parserConfig);
    }

    /**
     * Parser settings the bulk path does not apply: with any of them away from its default (e.g.
     * blank node ids kept, as RDF4J Server's {@code preserveNodeId}, or datatype values verified)
     * RDF4J's parser runs. Non-fatal errors (RDF4J Server makes datatype and language tag checks
     * non-fatal) are passed on to the bulk path's parsers.
     */
    private static final List<RioSetting<?>> NOT_APPLIED = List.of(BasicParserSettings.PRESERVE_BNODE_IDS,
            BasicParserSettings.VERIFY_DATATYPE_VALUES, BasicParserSettings.FAIL_ON_UNKNOWN_DATATYPES,
            BasicParserSettings.NORMALIZE_DATATYPE_VALUES, BasicParserSettings.FAIL_ON_UNKNOWN_LANGUAGES,
            BasicParserSettings.VERIFY_LANGUAGE_TAGS, BasicParserSettings.NORMALIZE_LANGUAGE_TAGS,
            BasicParserSettings.VERIFY_URI_SYNTAX, BasicParserSettings.VERIFY_RELATIVE_URIS);

    private boolean takes(RDFFormat format, Resource... contexts) {
        return (store != null || uploads != null) && TransactionLoad.accepts(format)
                && NOT_APPLIED.stream().allMatch(s -> Objects.equals(parserConfig.get(s), s.getDefaultValue()))
                && (contexts.length == 0 || contexts.length == 1 && contexts[0] != null);
    }

    private static Resource context(Resource... contexts) {
        return contexts.length == 0 ? null : contexts[0];
    }

    /**
     * A gzip-compressed stream is read through a decompressor, as RDF4J does; a zip archive is
     * RDF4J's (it may hold files of several formats).
     */
    void add(InputStream in, String baseUri, RDFFormat format, Resource[] contexts, Transactions tx,
            StreamFallback fallback) throws IOException {
        if (!takes(format, contexts)) {
            fallback.run(in);
            return;
        }
        InputStream buffered = in.markSupported() ? in : new BufferedInputStream(in, 1 << 16);
        buffered.mark(4);
        byte[] magic = buffered.readNBytes(4);
        buffered.reset();
        if (magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4) {
            fallback.run(buffered);
            return;
        }
        InputStream data = magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b
                ? new GZIPInputStream(buffered, 1 << 16) : buffered;
        if (uploads != null) {
            upload(data.markSupported() ? data : new BufferedInputStream(data, 1 << 16), baseUri, format,
                    context(contexts), tx, fallback);
            return;
        }
        run(TransactionLoad.ofStream(streamName(), data, format, baseUri, context(contexts),
                parserConfig.getNonFatalErrors(), tempParent()), tx,
                () -> fallback.run(data));
    }

    /**
     * What an added stream is called in errors: "request body" when RDF4J Server adds it for a
     * request (its handlers are on the calling thread's stack), else "input stream".
     */
    private static String streamName() {
        boolean server = StackWalker.getInstance()
                .walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith("org.eclipse.rdf4j.http.server.")));
        return server ? "request body" : "input stream";
    }

    void add(File file, String baseUri, RDFFormat format, Resource[] contexts, Transactions tx, Fallback fallback)
            throws IOException {
        RDFFormat f = format != null ? format : TransactionLoad.formatOf(file.toPath());
        String name = file.getName().toLowerCase(java.util.Locale.ROOT);
        if (store == null || !takes(f, contexts) || name.endsWith(".zip")) {
            fallback.run();
            return;
        }
        String base = baseUri != null ? baseUri : file.toURI().toString();
        run(TransactionLoad.ofFile(file.toPath(), f, base, context(contexts), parserConfig.getNonFatalErrors(),
                tempParent()), tx, fallback);
    }

    /** A {@code file:} URL is read as that file; other URLs are RDF4J's (content negotiation, redirects). */
    void add(URL url, String baseUri, RDFFormat format, Resource[] contexts, Transactions tx, Fallback fallback)
            throws IOException {
        if (!"file".equalsIgnoreCase(url.getProtocol())) {
            fallback.run();
            return;
        }
        File file;
        try {
            file = Path.of(url.toURI()).toFile();
        } catch (URISyntaxException | IllegalArgumentException e) {
            fallback.run();
            return;
        }
        add(file, baseUri != null ? baseUri : url.toExternalForm(), format, contexts, tx, fallback);
    }

    /** Hands a stream to the {@link UploadTarget}, in the connection's transaction or a local one. */
    private void upload(InputStream data, String baseUri, RDFFormat format, Resource context, Transactions tx,
            StreamFallback fallback) throws IOException {
        boolean local = tx.startLocal();
        boolean done = false;
        try {
            if (!uploads.addUpload(data, format, baseUri, context, parserConfig.getNonFatalErrors())) {
                fallback.run(data);
            }
            tx.commitLocal(local);
            done = true;
        } catch (SailException e) {
            throw new RepositoryException(e.getMessage(), e);
        } finally {
            if (!done) {
                tx.rollbackLocal(local);
            }
        }
    }

    private Path tempParent() {
        return store.getDataDir().toPath();
    }

    private void run(TransactionLoad load, Transactions tx, Fallback fallback) throws IOException {
        boolean local = tx.startLocal();
        boolean done = false;
        try {
            if (!((BasaltStoreConnection) sail).addBulk(load)) {
                fallback.run();
            }
            tx.commitLocal(local);
            done = true;
        } catch (LoadException e) {
            RDFParseException parse = new RDFParseException(e.getMessage(), e.line(), -1);
            parse.initCause(e);
            throw parse;
        } catch (SailException e) {
            throw new RepositoryException(e.getMessage(), e);
        } finally {
            if (!done) {
                tx.rollbackLocal(local);
            }
        }
    }

}
