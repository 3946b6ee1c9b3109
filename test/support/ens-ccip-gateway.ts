import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Address,
  bytesToString,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  encodePacked,
  type Hex,
  hexToBytes,
  keccak256,
  zeroAddress,
} from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { namehash } from 'viem/ens';
import {
  addrResolverAbi,
  extendedResolverAbi,
  textResolverAbi,
} from '../../src/features/identity/providers/ens/abis.js';

/** What the gateway holds for one name: the records an offchain resolver serves. */
export interface OffchainRecords {
  address?: Address;
  /** ENSIP-9 binary forms by coin type. */
  coinAddresses?: Record<number, Hex>;
  texts?: Record<string, string>;
}

export interface CcipGateway {
  /** POST endpoint to give the offchain resolver (EIP-3668: the client posts `{sender, data}`). */
  url: string;
  /** Requests answered so far, so tests can prove the lookup went through the gateway. */
  readonly requests: number;
  stop(): Promise<void>;
}

// The gateway decodes exactly what the provider encodes: the same ABIs.
const resolveAbi = extendedResolverAbi;
const recordAbi = [...addrResolverAbi, ...textResolverAbi] as const;

/** DNS wire format (RFC 1035 §3.1) back to a dotted name. */
function dnsDecode(packet: Hex): string {
  const bytes = hexToBytes(packet);
  const labels: string[] = [];
  for (let i = 0; bytes[i] !== 0; i += 1 + (bytes[i] as number)) {
    labels.push(bytesToString(bytes.slice(i + 1, i + 1 + (bytes[i] as number))));
  }
  return labels.join('.');
}

/**
 * A loopback CCIP-Read gateway (EIP-3668) for `TestOffchainResolver`, answering like
 * ensdomains/offchain-resolver's gateway: it decodes `resolve(dnsName, data)`, looks the record up in
 * `records`, and returns `abi.encode(result, expires, signature)` signed by `signer` over
 * `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result))`.
 */
export async function startCcipGateway(options: {
  signer: LocalAccount;
  records: Record<string, OffchainRecords>;
}): Promise<CcipGateway> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', async () => {
      try {
        const { sender, data } = JSON.parse(body) as { sender: Address; data: Hex };
        const { args } = decodeFunctionData({ abi: resolveAbi, data });
        const [dnsName, inner] = args;
        const name = dnsDecode(dnsName);
        const record = options.records[name] ?? {};
        const call = decodeFunctionData({ abi: recordAbi, data: inner });
        if (call.args[0] !== namehash(name)) throw new Error('node does not match name');
        let result: Hex;
        if (call.functionName === 'text') {
          const key = call.args[1];
          result = encodeFunctionResult({ abi: recordAbi, functionName: 'text', result: record.texts?.[key] ?? '' });
        } else if (call.args.length === 2) {
          const coinType = Number(call.args[1]);
          result = encodeAbiParameters([{ type: 'bytes' }], [record.coinAddresses?.[coinType] ?? '0x']);
        } else {
          result = encodeAbiParameters([{ type: 'address' }], [record.address ?? zeroAddress]);
        }
        const expires = BigInt(Math.floor(Date.now() / 1000) + 300);
        const hash = keccak256(
          encodePacked(
            ['bytes', 'address', 'uint64', 'bytes32', 'bytes32'],
            ['0x1900', sender, expires, keccak256(data), keccak256(result)],
          ),
        );
        if (!options.signer.sign) throw new Error('signer cannot sign hashes');
        const signature = await options.signer.sign({ hash });
        requests++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            data: encodeAbiParameters(
              [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
              [result, expires, signature],
            ),
          }),
        );
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(err) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    get requests() {
      return requests;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
