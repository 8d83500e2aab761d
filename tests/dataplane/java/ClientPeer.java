import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's Java producer and consumer against a cluster: for each topic given, produce RECORDS records
 * (acks=all, idempotence on, the topic's codec) round-robin over its partitions, then read them all back
 * from the beginning (read_committed), and print one JSON line per topic: what was sent and acknowledged,
 * what came back (count, duplicates, per-partition order), the end offsets, an offset found by time, and
 * the seconds each half took.
 *
 * Usage: ClientPeer BOOTSTRAP RECORDS VALUE_BYTES TOPIC:PARTITIONS:CODEC...
 */
public class ClientPeer {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int records = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        for (int i = 3; i < args.length; i++) {
            String[] spec = args[i].split(":");
            System.out.println(run(bootstrap, spec[0], Integer.parseInt(spec[1]), spec[2], records, size));
            System.out.flush();
        }
    }

    static String run(String bootstrap, String topic, int partitions, String codec, int records, int size)
            throws Exception {
        byte[] value = new byte[size];
        for (int i = 0; i < size; i++) value[i] = (byte) ('a' + (i * 7 + i / 13) % 26);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        AtomicInteger acked = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstError = new AtomicReference<>("");
        long start = System.nanoTime();
        long sentAt = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topic, i % partitions, key, value), (metadata, error) -> {
                    if (error == null) acked.incrementAndGet();
                    else if (failed.getAndIncrement() == 0) firstError.set(error.toString());
                });
            }
            producer.flush();
        }
        double produceSeconds = (System.nanoTime() - start) / 1e9;

        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<TopicPartition> assigned = new ArrayList<>();
        for (int i = 0; i < partitions; i++) assigned.add(new TopicPartition(topic, i));
        Map<Integer, Long> lastOffset = new HashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        int consumed = 0;
        int duplicates = 0;
        boolean ordered = true;
        boolean valuesIntact = true;
        Map<TopicPartition, Long> ends;
        Map<TopicPartition, OffsetAndTimestamp> byTime;
        start = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.currentTimeMillis() + 60000;
            while (consumed < acked.get() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    consumed++;
                    String key = new String(r.key(), StandardCharsets.UTF_8);
                    if (seen.merge(key, 1, Integer::sum) > 1) duplicates++;
                    Long before = lastOffset.put(r.partition(), r.offset());
                    if (before != null && before >= r.offset()) ordered = false;
                    if (!java.util.Arrays.equals(r.value(), value)) valuesIntact = false;
                }
            }
            ends = consumer.endOffsets(assigned);
            Map<TopicPartition, Long> times = new HashMap<>();
            times.put(assigned.get(0), sentAt - 60000);
            byTime = consumer.offsetsForTimes(times);
        }
        double consumeSeconds = (System.nanoTime() - start) / 1e9;
        StringBuilder endText = new StringBuilder();
        for (TopicPartition tp : assigned) {
            if (endText.length() > 0) endText.append(',');
            endText.append(ends.get(tp));
        }
        OffsetAndTimestamp found = byTime.get(assigned.get(0));
        return "{\"topic\":\"" + topic + "\",\"codec\":\"" + codec + "\",\"acked\":" + acked.get()
                + ",\"failed\":" + failed.get() + ",\"first_error\":\"" + firstError.get().replace("\"", "'")
                + "\",\"consumed\":" + consumed + ",\"duplicates\":" + duplicates + ",\"ordered\":" + ordered
                + ",\"values_intact\":" + valuesIntact + ",\"end_offsets\":[" + endText + "]"
                + ",\"offset_by_time\":" + (found == null ? -1 : found.offset())
                + ",\"produce_seconds\":" + produceSeconds + ",\"consume_seconds\":" + consumeSeconds + "}";
    }
}
