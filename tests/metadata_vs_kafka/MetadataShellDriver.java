import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.shell.MetadataShell;
import org.apache.kafka.shell.command.Commands;
import org.apache.kafka.shell.state.MetadataShellState;

/**
 * Runs many kafka-metadata-shell commands on one snapshot in one JVM: MetadataShell loads the file
 * as `kafka-metadata-shell.sh --snapshot FILE COMMAND` does (its own run() with a first command),
 * then each stdin line (words separated by tabs) is parsed and run by Kafka's Commands, one-shot
 * style, as that script runs its one command. After each command's output comes a line holding
 * the END marker, so the caller can split the output by command. The output goes to the file
 * args[1], apart from the tools' log lines on the standard streams.
 *
 * run() returns once the file is read, which can be before the loader hands the image to the
 * shell (it retries installing its publisher every 100 ms while "catching up"): until then every
 * path is empty and /image/features/metadataVersion is Optional.empty. A one-shot
 * kafka-metadata-shell.sh can print that empty image; this driver waits for the image instead.
 */
public final class MetadataShellDriver {
    static final String END = "\u001e";

    public static void main(String[] args) throws Exception {
        MetadataShell shell = new MetadataShell.Builder().setSnapshotPath(args[0]).build();
        PrintStream out = System.out;
        // run() loads the snapshot and waits until it is applied; its one command's output is dropped.
        System.setOut(new PrintStream(PrintStream.nullOutputStream()));
        try {
            shell.run(List.of("ls", "/"));
        } finally {
            System.setOut(out);
        }
        Field field = MetadataShell.class.getDeclaredField("state");
        field.setAccessible(true);
        MetadataShellState state = (MetadataShellState) field.get(shell);
        Commands commands = new Commands(false);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!published(commands, state)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the image was not published within 60 s");
            }
            Thread.sleep(20);
        }
        PrintWriter writer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
            new FileOutputStream(args[1]), StandardCharsets.UTF_8)));
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = input.readLine()) != null) {
            List<String> words = Arrays.asList(line.split("\t", -1));
            try {
                commands.parseCommand(words).run(Optional.empty(), writer, state);
            } catch (Exception e) {
                writer.println("EXCEPTION " + e);
            }
            writer.println(END);
        }
        writer.close();
        shell.close();
        System.exit(0);
    }

    private static boolean published(Commands commands, MetadataShellState state) throws Exception {
        StringWriter text = new StringWriter();
        try (PrintWriter writer = new PrintWriter(text)) {
            commands.parseCommand(List.of("cat", "/image/features/metadataVersion")).run(Optional.empty(), writer, state);
        }
        return !text.toString().startsWith("Optional.empty");
    }
}
