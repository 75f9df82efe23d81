package dev.basalt.replication;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.replication.log.ChangeSet;
import dev.basalt.replication.log.ChangeSetCodec;
import dev.basalt.replication.log.UploadEntry;
import dev.basalt.sail.BasaltStoreConnection;
import dev.basalt.sail.load.TransactionLoad;

/**
 * An N-Triples or N-Quads upload that a transaction of a {@link ReplicatedConnection} takes whole,
 * unparsed: its bytes compressed into an {@link UploadEntry} whose pieces go to the log while the
 * body is read ({@link UploadStream}), committed with the transaction's later writes as the entry's
 * trailer, and loaded by every replica with the store's bulk loader ({@link #loadInto}). An upload
 * shorter than {@link #MIN_BYTES} or of another format is not taken ({@link #take} gives null).
 *
 * <p>Thread rules: belongs to one transaction of one connection, used by that connection's thread,
 * one call at a time; {@link #loadInto} is called by whichever thread loads an entry into a
 * connection of its own.
 */
final class WholeUpload {
    /** Uploads smaller than this are parsed by RDF4J and recorded as statements. */
    static final int MIN_BYTES = 1 << 20;
    /** What the bulk loader calls an upload in its messages. */
    static final String NAME = "upload";

    private final UploadEntry entry;
    private final UploadStream stream;

    private WholeUpload(UploadEntry entry, UploadStream stream) {
        this.entry = entry;
        this.stream = stream;
    }

    /**
     * Takes {@code data} whole when it is N-Triples or N-Quads of at least {@link #MIN_BYTES}, its
     * pieces sent to {@code sail}'s log as they are read; else null, {@code data} reset.
     */
    static WholeUpload take(ReplicatedSail sail, InputStream data, RDFFormat format, String baseUri,
            Resource context, Set<RioSetting<?>> nonFatalErrors) throws IOException {
        if (!(format.equals(RDFFormat.NTRIPLES) || format.equals(RDFFormat.NQUADS))) {
            return null;
        }
        data.mark(MIN_BYTES);
        byte[] head = data.readNBytes(MIN_BYTES);
        if (head.length < MIN_BYTES) {
            data.reset();
            return null;
        }
        UploadEntry shape = new UploadEntry(ThreadLocalRandom.current().nextLong(), format, baseUri, context,
                UploadEntry.keys(nonFatalErrors), 0, new byte[0], new byte[0]);
        UploadStream out = sail.uploadStream(shape.header());
        long raw;
        try {
            raw = UploadEntry.compress(head, data, out);
        } catch (IOException | RuntimeException e) {
            out.abandon();
            throw e;
        }
        return new WholeUpload(new UploadEntry(shape.scope(), format, baseUri, context, shape.nonFatalErrors(), raw,
                out.compressed(), new byte[0]), out);
    }

    /** The upload as its entry (without the transaction's later writes), to load into a local view. */
    UploadEntry entry() {
        return entry;
    }

    /**
     * Commits the upload with the transaction's writes after it ({@code after}) as the entry's trailer
     * (the header and most of the upload went as parts while it was read); returns the log index.
     */
    long commit(ChangeSet after) throws IOException {
        byte[] trailer = entry.withChangeSetAfter(after.isEmpty() ? new byte[0] : ChangeSetCodec.encode(after))
                .trailer();
        return stream.commit(trailer);
    }

    /** Gives the upload up: the parts sent are aborted (nothing once committed). */
    void abandon() {
        stream.abandon();
    }

    /**
     * The parse error a replica's refusal of an upload stands for (a malformed upload, as the bulk
     * loader of one server reports it: RDF4J Server answers 400), or null if {@code e} is no such
     * refusal.
     */
    static RDFParseException malformed(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ReplicaNode.Refused refused && refused.reason().startsWith(NAME + ":")) {
                RDFParseException parse = new RDFParseException(refused.reason());
                parse.initCause(e);
                return parse;
            }
        }
        return null;
    }

    /**
     * Loads {@code upload} into {@code c}'s open transaction through the store's bulk loader, with
     * the upload's blank node scope (so every replica, and a transaction's own view, make the same
     * blank nodes).
     *
     * @throws dev.basalt.sail.load.LoadException if the upload is malformed (the message starts with
     *                                            {@value #NAME} and the line)
     * @throws SailException                      if the store cannot take the bulk path now
     */
    static void loadInto(SailConnection c, UploadEntry upload, Path tempParent) {
        TransactionLoad load = TransactionLoad.ofStream(NAME, upload.open(), upload.format(),
                upload.baseIri(), upload.context(), upload.nonFatalSettings(), tempParent)
                .withBlankNodeScope(upload.blankNodeScope());
        if (!(c instanceof BasaltStoreConnection basalt) || !basalt.addBulk(load)) {
            throw new SailException("the store cannot take an upload through its bulk loader now"
                    + " (a connection listener, or another write in progress)");
        }
    }
}
