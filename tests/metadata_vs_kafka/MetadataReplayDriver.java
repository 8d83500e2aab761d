import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.message.LeaderChangeMessage;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.image.MetadataDelta;
import org.apache.kafka.image.MetadataImage;
import org.apache.kafka.image.MetadataProvenance;
import org.apache.kafka.image.loader.MetadataBatchLoader;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.raft.Batch;
import org.apache.kafka.raft.ControlRecord;
import org.apache.kafka.raft.LeaderAndEpoch;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.fault.FaultHandler;
import org.apache.kafka.shell.command.Commands;
import org.apache.kafka.shell.node.RootShellNode;
import org.apache.kafka.shell.state.MetadataShellState;

/**
 * Replays metadata files as a Kafka node's MetadataLoader does and runs Kafka's shell commands on the
 * image, in one JVM for many inputs (no loader thread, so none of MetadataShell's races):
 *
 *   MetadataReplayDriver OUTDIR INPUT...
 *
 * Each INPUT is a comma-separated list of files: a `.checkpoint` snapshot (replayed into a
 * MetadataDelta, then finishSnapshot, as MetadataLoader.loadSnapshot) and/or log segments, whose data
 * batches go through Kafka's MetadataBatchLoader (KIP-868 transactions included) from the snapshot's
 * end offset on. The stdin commands (words separated by tabs) run on each input's image through the
 * shell's own Commands and RootShellNode; the output of input N goes to OUTDIR/N.txt, each command's
 * output followed by a line holding END. A record Kafka's replay refuses (a fault) is one
 * `FAULT message` line before the commands' output; an input that cannot be read is one EXCEPTION line.
 */
public final class MetadataReplayDriver {
    static final String END = "\u001e";

    public static void main(String[] args) throws Exception {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<List<String>> commands = new ArrayList<>();
        String line;
        while ((line = input.readLine()) != null) {
            commands.add(Arrays.asList(line.split("\t", -1)));
        }
        for (int index = 1; index < args.length; index++) {
            try (PrintWriter writer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
                    new FileOutputStream(args[0] + "/" + (index - 1) + ".txt"), StandardCharsets.UTF_8)))) {
                try {
                    run(args[index].split(","), commands, writer);
                } catch (Exception e) {
                    writer.println("EXCEPTION " + e);
                }
            }
        }
        System.exit(0);
    }

    private static void run(String[] files, List<List<String>> lines, PrintWriter writer) throws Exception {
        List<String> faults = new ArrayList<>();
        FaultHandler faultHandler = (message, cause) -> {
            faults.add(message + (cause == null ? "" : ": " + cause));
            return new RuntimeException(message, cause);
        };
        MetadataImage[] image = {MetadataImage.EMPTY};
        long start = 0;
        MetadataBatchLoader loader = loader(faultHandler, (delta, newImage, manifest) -> image[0] = newImage);
        for (String file : files) {
            List<FileBatch> batches = batches(file);
            if (file.endsWith(".checkpoint")) {
                image[0] = snapshot(batches, image[0], file);
                loader.resetToImage(image[0]);
                start = image[0].provenance().lastContainedOffset() + 1;
            } else {
                for (FileBatch batch : batches) {
                    if (batch.lastOffset < start) {
                        continue;
                    }
                    // control batches too, as the loader gets them: they move its offset and epoch
                    loader.loadBatch(batch.control
                        ? Batch.control(batch.baseOffset, batch.epoch, batch.maxTimestamp, batch.size, batch.controlRecords())
                        : Batch.data(batch.baseOffset, batch.epoch, batch.maxTimestamp, batch.size, batch.records(start)),
                        LeaderAndEpoch.UNKNOWN);
                }
            }
        }
        loader.maybeFlushBatches(LeaderAndEpoch.UNKNOWN, true);
        for (String fault : faults) {
            writer.println("FAULT " + fault);
        }
        MetadataShellState state = new MetadataShellState();
        state.setRoot(new RootShellNode(image[0]));
        Commands commands = new Commands(false);
        for (List<String> words : lines) {
            try {
                commands.parseCommand(words).run(Optional.empty(), writer, state);
            } catch (Exception e) {
                writer.println("EXCEPTION " + e);
            }
            writer.println(END);
        }
    }

    /**
     * Kafka's MetadataBatchLoader, built by reflection so that one source runs on 4.0 (4 arguments,
     * org.apache.kafka.common.utils.LogContext) and 4.4 (a fifth, the SupportedConfigChecker, and
     * LogContext in common.utils.internals); the checker is the one that accepts every config, as the
     * shell's loader has it.
     */
    private static MetadataBatchLoader loader(FaultHandler faults, MetadataBatchLoader.MetadataUpdater updater)
            throws Exception {
        for (Constructor<?> constructor : MetadataBatchLoader.class.getConstructors()) {
            Class<?>[] types = constructor.getParameterTypes();
            Object logContext = types[0].getConstructor().newInstance();
            if (types.length == 4) {
                return (MetadataBatchLoader) constructor.newInstance(logContext, Time.SYSTEM, faults, updater);
            }
            Object accepting = types[4].getField("TRUE").get(null);
            return (MetadataBatchLoader) constructor.newInstance(logContext, Time.SYSTEM, faults, updater, accepting);
        }
        throw new IllegalStateException("no MetadataBatchLoader constructor");
    }

    /** A snapshot's records applied to an empty delta of `base`, then finishSnapshot (MetadataLoader.loadSnapshot). */
    private static MetadataImage snapshot(List<FileBatch> batches, MetadataImage base, String file) {
        MetadataDelta delta = new MetadataDelta.Builder().setImage(base).build();
        long time = -1;
        for (FileBatch batch : batches) {
            if (!batch.control) {
                for (ApiMessageAndVersion record : batch.records(0)) {
                    delta.replay(record.message());
                }
            } else if (time == -1) {
                time = batch.headerTimestamp();
            }
        }
        delta.finishSnapshot();
        // the snapshot's end offset and epoch are in its name: 20 digits, a dash, 10 digits
        String name = new File(file).getName();
        long end = Long.parseLong(name.substring(0, 20));
        int epoch = Integer.parseInt(name.substring(21, 31));
        return delta.apply(new MetadataProvenance(end - 1, epoch, time, true));
    }

    /**
     * The record batches of one file, framed here (magic 2, uncompressed: what the metadata log holds)
     * rather than by Kafka's record classes, whose package moved between 4.0 and 4.4.
     */
    private static List<FileBatch> batches(String file) throws Exception {
        ByteBuffer buffer = ByteBuffer.wrap(Files.readAllBytes(new File(file).toPath()));
        List<FileBatch> out = new ArrayList<>();
        while (buffer.remaining() >= 61) {
            int position = buffer.position();
            int size = buffer.getInt(position + 8) + 12;
            if (size > buffer.remaining()) {
                break;
            }
            if (buffer.get(position + 16) != 2 || (buffer.getShort(position + 21) & 0x07) != 0) {
                throw new IllegalStateException(file + ": a batch at byte " + position + " that is not magic 2, uncompressed");
            }
            out.add(new FileBatch(buffer.duplicate().position(position).limit(position + size).slice()));
            buffer.position(position + size);
        }
        return out;
    }

    /** One record of a batch. */
    private static final class Entry {
        final long offset;
        final ByteBuffer key;
        final ByteBuffer value;

        Entry(long offset, ByteBuffer key, ByteBuffer value) {
            this.offset = offset;
            this.key = key;
            this.value = value;
        }
    }

    /** One record batch (the v2 layout: RecordBatch in Kafka's message format documentation). */
    private static final class FileBatch {
        final ByteBuffer data;
        final long baseOffset;
        final long lastOffset;
        final int epoch;
        final long maxTimestamp;
        final int size;
        final boolean control;

        FileBatch(ByteBuffer data) {
            this.data = data;
            this.baseOffset = data.getLong(0);
            this.size = data.limit();
            this.epoch = data.getInt(12);
            this.control = (data.getShort(21) & 0x20) != 0;
            this.lastOffset = baseOffset + data.getInt(23);
            this.maxTimestamp = data.getLong(35);
        }

        List<ApiMessageAndVersion> records(long start) {
            List<ApiMessageAndVersion> out = new ArrayList<>();
            for (Entry entry : entries()) {
                if (entry.offset >= start) {
                    out.add(MetadataRecordSerde.INSTANCE.read(new ByteBufferAccessor(entry.value), entry.value.remaining()));
                }
            }
            return out;
        }

        /**
         * The batch's control records as Kafka's raft layer hands them over: decoded by 4.4's
         * ControlRecord.of(key, value); on 4.0, whose ControlRecord takes a decoded message, each as a
         * LeaderChange (the loader uses only how many there are and their offsets).
         */
        List<ControlRecord> controlRecords() throws Exception {
            List<ControlRecord> out = new ArrayList<>();
            for (Entry entry : entries()) {
                try {
                    Method of = ControlRecord.class.getMethod("of", ByteBuffer.class, ByteBuffer.class);
                    out.add((ControlRecord) of.invoke(null, entry.key, entry.value));
                } catch (NoSuchMethodException e) {
                    Class<?> types = Class.forName("org.apache.kafka.common.record.ControlRecordType");
                    Object leaderChange = types.getField("LEADER_CHANGE").get(null);
                    out.add((ControlRecord) ControlRecord.class.getConstructor(types, ApiMessage.class)
                        .newInstance(leaderChange, new LeaderChangeMessage()));
                }
            }
            return out;
        }

        /** Each record's offset, key and value. */
        List<Entry> entries() {
            ByteBuffer buffer = data.duplicate().position(61);
            int count = data.getInt(57);
            List<Entry> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int length = varint(buffer);
                int end = buffer.position() + length;
                buffer.get(); // attributes
                varlong(buffer); // timestamp delta
                long offset = baseOffset + varint(buffer);
                int keyLength = varint(buffer);
                ByteBuffer key = buffer.slice().limit(Math.max(keyLength, 0));
                buffer.position(buffer.position() + Math.max(keyLength, 0));
                int valueLength = varint(buffer);
                ByteBuffer value = buffer.slice().limit(Math.max(valueLength, 0));
                out.add(new Entry(offset, key, value));
                buffer.position(end);
            }
            return out;
        }

        /**
         * The LastContainedLogTimestamp of the SnapshotHeaderRecord that opens a snapshot: a control
         * record of type 3 whose value is its version, then the int64 time.
         */
        long headerTimestamp() {
            Entry first = entries().get(0);
            return first.key.getShort(2) == 3 ? first.value.getLong(2) : -1;
        }

        private static int varint(ByteBuffer buffer) {
            long value = varlong(buffer);
            return (int) value;
        }

        /** A zigzag varlong (the record fields' encoding). */
        private static long varlong(ByteBuffer buffer) {
            long raw = 0;
            int shift = 0;
            byte b;
            do {
                b = buffer.get();
                raw |= (long) (b & 0x7f) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            return (raw >>> 1) ^ -(raw & 1);
        }
    }
}
