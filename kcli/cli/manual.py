"""Man-page sections beyond a command's help: longer guidance that does not belong in --help.

`kcli.cli.docgen` adds each section, titled in capitals, to the page of its command path.
Paragraphs are separated by blank lines.
"""

from __future__ import annotations

SPARK_CLUSTER = """\
kcli spark audit is a Spark driver in client mode: it runs where you start it, collects live \
clusters from there, plans the job and prints the result; executors do the reading and the rules.

The master comes from --master, else from the deployment: --master in PYSPARK_SUBMIT_ARGS, \
spark.master in spark-defaults.conf (in SPARK_CONF_DIR), or spark-submit itself (run \
kcli/__main__.py as the application with the kcli arguments after it); only when nothing sets \
one, local[*]. Other Spark settings go in the same places or in --conf KEY=VALUE.

Inputs and --out are read and written through Spark's Hadoop filesystem layer and must be where \
the executors reach them: hdfs://, s3a:// (with the hadoop-aws connector and its credentials \
configured), or a mount shared by every node (file://). A path without a scheme is a local path of \
the machine kcli runs on: right for local masters and shared mounts only. Live clusters \
(--bootstrap-server, --profile) need no shared storage: the collected snapshot travels with the job.

Executors need only Spark for snapshot audits: the rules are Spark SQL. --metadata-dir audits run \
kcli's log reader in Python tasks: kcli ships itself to the job (a zip added with addPyFile, with \
crc32c, cramjam and kio as built for the driver), so executors need a Python of the same minor \
version on the same OS and CPU (named by PYSPARK_PYTHON or spark.pyspark.python), with nothing \
installed. Executors on another platform need kcli installed, or a packed environment given with \
spark.archives and spark.pyspark.python.

Standalone (spark://host:7077): workers with Java and the same Spark version. YARN (yarn): \
HADOOP_CONF_DIR or YARN_CONF_DIR on the kcli machine, client mode only, the executors' Python on \
every NodeManager. Kubernetes (k8s://https://host:port): client mode with \
spark.kubernetes.container.image naming an image with Spark (and Python for --metadata-dir), a \
service account allowed to create executor pods, and a driver the pods can reach (spark.driver.host).

Exit status: 0 clean; 1 a finding at or above --fail-on; 2 usage; 3 the audit could not run \
(Spark failed, an input unreadable, a cluster not collected) or its input was incomplete (every \
warning is printed on stderr, listed in -o json and written to warnings.parquet and warnings.jsonl \
under --out) and no finding reached --fail-on. --strict stops an incomplete audit before any rule \
runs. Spark's and the JVM's own output appears only with kcli --debug.
"""

INSTALLATION = """\
A package install (pip, pipx) puts these manual pages under share/man/man1 of its environment, and \
the completion scripts under share/bash-completion/completions, share/zsh/site-functions and \
share/fish/vendor_completions.d, where the shells of a system-wide install look. man finds the \
pages of an environment whose bin directory is on PATH (pipx links them into ~/.local/share/man); \
otherwise name the environment in MANPATH, keeping the default path with a trailing colon: \
MANPATH="$VIRTUAL_ENV/share/man:" man kcli.

kcli completion install puts the completion script of your shell ($SHELL, or the one named: bash, \
zsh or fish) where that shell looks for a user's own: bash-completion's user directory, fish's \
completions directory, and for zsh a directory that one line in ~/.zshrc adds to $fpath. Open a \
new shell afterwards. kcli completion show prints the script instead, to source it (source <(kcli \
completion show bash)) or to save it elsewhere. The scripts ask kcli itself for the candidates: \
commands, options, profile names, config names and metadata-shell paths.
"""

# The client.properties of each security set-up, as Kafka's tools take them (--command-config);
# the README shows the same files, and a test checks that each one is read without an error.
SECURITY_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        "mTLS with JKS stores (Kafka's default store type; kcli-kafka[keystores])",
        """\
security.protocol=SSL
ssl.truststore.location=/etc/kafka/truststore.jks
ssl.truststore.password=truststore-secret
ssl.keystore.location=/etc/kafka/client.keystore.jks
ssl.keystore.password=keystore-secret
ssl.key.password=key-secret
""",
    ),
    (
        "mTLS with PKCS12 stores (kcli-kafka[keystores])",
        """\
security.protocol=SSL
ssl.truststore.type=PKCS12
ssl.truststore.location=/etc/kafka/truststore.p12
ssl.truststore.password=truststore-secret
ssl.keystore.type=PKCS12
ssl.keystore.location=/etc/kafka/client.p12
ssl.keystore.password=keystore-secret
""",
    ),
    (
        "Kerberos (SASL/GSSAPI) with a keytab (kcli-kafka[kerberos]; krb5.conf from KRB5_CONFIG or /etc/krb5.conf)",
        """\
security.protocol=SASL_SSL
sasl.mechanism=GSSAPI
sasl.kerberos.service.name=kafka
sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required \\
    useKeyTab=true storeKey=true keyTab="/etc/security/keytabs/ops.keytab" principal="ops@EXAMPLE.COM";
ssl.truststore.type=PEM
ssl.truststore.location=/etc/kafka/ca.pem
""",
    ),
    (
        "OAuth 2 / OIDC (SASL/OAUTHBEARER, KIP-768 client credentials)",
        """\
security.protocol=SASL_SSL
sasl.mechanism=OAUTHBEARER
sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler
sasl.oauthbearer.token.endpoint.url=https://idp.example.com/realms/kafka/protocol/openid-connect/token
sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required \\
    clientId="kafka-ops" clientSecret="client-secret" scope="kafka";
""",
    ),
    (
        "Amazon MSK IAM (kcli-kafka[aws]; credentials from the AWS environment, profile or role)",
        """\
security.protocol=SASL_SSL
sasl.mechanism=AWS_MSK_IAM
sasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;
sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler
""",
    ),
    (
        "Amazon MSK IAM through OAUTHBEARER (kcli-kafka[aws])",
        """\
security.protocol=SASL_SSL
sasl.mechanism=OAUTHBEARER
sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
sasl.login.callback.handler.class=software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler
""",
    ),
)

SECURITY = (
    """\
kcli reads the client.properties that Kafka's tools read (--command-config FILE), and the same \
settings in a profile. docs/security.md lists every security setting of Kafka's AdminClient and \
what kcli does with it. In a profile, secrets may be kept out of the file as ${env:NAME} or \
${file:PATH} references; kcli never prints them (profile show, --debug and errors hide them). JKS and PKCS12 \
stores need pip install 'kcli-kafka[keystores]', Kerberos 'kcli-kafka[kerberos]' (with MIT Kerberos: \
libkrb5-dev to build it), MSK IAM 'kcli-kafka[aws]'.
"""
    + "".join(
        f"\n{title}:\n\n" + "".join(f"    {line}\n" for line in text.splitlines())
        for title, text in SECURITY_EXAMPLES
    )
)

SECTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "": (("Shell completion and manual pages", INSTALLATION), ("Security (client.properties)", SECURITY)),
    "completion": (("Shell completion and manual pages", INSTALLATION),),
    "spark": (("Running on a Spark cluster", SPARK_CLUSTER),),
    "spark audit": (("Running on a Spark cluster", SPARK_CLUSTER),),
}
