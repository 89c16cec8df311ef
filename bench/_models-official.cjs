// Cold-start probe for the official @google-cloud/aiplatform client: require it, build a
// v1beta1 ModelServiceClient for the sandbox, make one GetModel call, print the time (and CPU time) since start.
const bootstrapMs = performance.now();
const bootstrapCpu = process.cpuUsage();
const [endpoint, name] = process.argv.slice(2);
const { v1beta1 } = require('@google-cloud/aiplatform');
// gax's own grpc-js copy, so the channel credentials are the type it checks for.
const { grpc, googleAuthLibrary } = require('google-gax');

async function main() {
  const [host, port] = [
    endpoint.slice(0, endpoint.lastIndexOf(':')),
    Number(endpoint.slice(endpoint.lastIndexOf(':') + 1)),
  ];
  const client = new v1beta1.ModelServiceClient({
    apiEndpoint: host,
    port,
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new googleAuthLibrary.OAuth2Client(),
    'grpc.callInvocationTransformer': (p) => {
      p.metadata.set('authorization', 'Bearer bench');
      return p;
    },
  });
  const [model] = await client.getModel({ name });
  const ms = performance.now();
  const cpu = process.cpuUsage();
  if (!model.name) throw new Error('GetModel answered without a name');
  const cpuMs = (c) => (c.user + c.system) / 1000;
  process.stdout.write(`COLDSTART ${ms} BOOTSTRAP ${bootstrapMs} CPU ${cpuMs(cpu)} BOOTCPU ${cpuMs(bootstrapCpu)}\n`);
  await client.close();
}

main().catch((err) => {
  process.stderr.write(String((err && err.stack) || err) + '\n');
  process.exit(1);
});
