import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Apache Kafka's Java producer and consumer against a cluster, one run per JVM: argv[0] is a JSON object
 * {bootstrap, topic, group, protocol: classic|consumer, records, members, commits, transactional}; one
 * JSON line comes out on stdout.
 *
 * <p>The run produces `records` values ("v0", "v1", ...; with `transactional`, as one committed transaction
 * and then as many values "aborted-i" in an aborted one), then `members` consumers of `group` (read_committed)
 * consume every committed value and each has partitions, commit their positions, commit them again `commits`
 * times (the commit loop), and stay until every member is done. Out: the values consumed, each member's assignment, when it was
 * first given partitions (ms after it subscribed), its commits per second, and the group's committed offsets.
 */
public final class GroupPeer {
    private GroupPeer() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        @SuppressWarnings("unchecked")
        Map<String, Object> cfg = (Map<String, Object>) Json.parse(args[0]);
        String bootstrap = (String) cfg.get("bootstrap");
        String topic = (String) cfg.get("topic");
        int records = Ops.num(cfg, "records");
        produce(bootstrap, topic, records, Ops.flag(cfg, "transactional"));
        int members = Ops.num(cfg, "members");
        AtomicInteger consumed = new AtomicInteger();
        List<String> values = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(members);
        List<Map<String, Object>> reports = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Map<String, Object> committed = new TreeMap<>();
        for (int i = 0; i < members; i++) {
            Map<String, Object> report = new LinkedHashMap<>();
            reports.add(report);
            boolean first = i == 0;
            Thread thread = new Thread(() -> {
                try {
                    member(cfg, consumed, values, done, report, first ? committed : null);
                } catch (Exception error) {
                    report.put("error", error.toString());
                    done.countDown();
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(120_000);
        }
        values.sort(null);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("values", new ArrayList<>(values));
        answer.put("members", reports);
        answer.put("committed", committed);
        out.println(Json.write(answer));
    }

    private static Properties common(String bootstrap) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("request.timeout.ms", "15000");
        props.put("retry.backoff.ms", "100");
        return props;
    }

    private static void produce(String bootstrap, String topic, int records, boolean transactional) throws Exception {
        Properties props = common(bootstrap);
        props.put("key.serializer", StringSerializer.class.getName());
        props.put("value.serializer", StringSerializer.class.getName());
        props.put("enable.idempotence", "true");
        props.put("linger.ms", "5");
        if (transactional) {
            props.put("transactional.id", topic + "-producer");
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            if (transactional) {
                producer.initTransactions();
                producer.beginTransaction();
            }
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            if (transactional) {
                producer.commitTransaction();
                producer.beginTransaction();
                for (int i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>(topic, "k" + i, "aborted-" + i));
                }
                producer.flush();
                producer.abortTransaction();
            }
            producer.flush();
        }
    }

    private static void member(Map<String, Object> cfg, AtomicInteger consumed, List<String> values,
            CountDownLatch done, Map<String, Object> report, Map<String, Object> committed) throws Exception {
        Properties props = common((String) cfg.get("bootstrap"));
        props.put("group.id", (String) cfg.get("group"));
        props.put("group.protocol", (String) cfg.get("protocol"));
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        props.put("isolation.level", "read_committed");
        String topic = (String) cfg.get("topic");
        int records = Ops.num(cfg, "records");
        int commits = Ops.num(cfg, "commits");
        long subscribed = System.nanoTime();
        long[] firstAssigned = {-1};
        List<String> assigned = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // on until every record is read and this member has partitions (with the consumer protocol the
            // first member is given them all, and hands some over as the others join)
            while ((consumed.get() < records || consumer.assignment().isEmpty()) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    values.add(record.value());
                    consumed.incrementAndGet();
                }
                if (firstAssigned[0] < 0 && !consumer.assignment().isEmpty()) {
                    firstAssigned[0] = System.nanoTime();
                }
            }
            consumer.commitSync();
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            for (TopicPartition tp : consumer.assignment()) {
                positions.put(tp, new OffsetAndMetadata(consumer.position(tp)));
            }
            long started = System.nanoTime();
            for (int i = 0; i < commits; i++) {
                consumer.commitSync(positions);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            report.put("firstAssignmentMs", firstAssigned[0] < 0 ? -1 : (firstAssigned[0] - subscribed) / 1_000_000);
            report.put("commitsPerSecond", commits == 0 || seconds == 0 ? 0 : Math.round(commits / seconds));
            done.countDown();
            while (!done.await(50, TimeUnit.MILLISECONDS)) {
                consumer.poll(Duration.ofMillis(50)); // stay in the group (heartbeats) until every member is done
            }
            for (TopicPartition tp : consumer.assignment()) {
                assigned.add(tp.topic() + "-" + tp.partition());
            }
            assigned.sort(null);
            report.put("assignment", assigned);
            if (committed != null) {
                List<TopicPartition> all = new ArrayList<>();
                consumer.partitionsFor(topic).forEach(p -> all.add(new TopicPartition(topic, p.partition())));
                consumer.committed(new java.util.HashSet<>(all)).forEach((tp, offset) ->
                        committed.put(tp.topic() + "-" + tp.partition(), offset == null ? null : offset.offset()));
            }
        }
    }
}
