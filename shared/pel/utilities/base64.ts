/** UTF-8 aware base64 and hex, isomorphic (btoa/atob with TextEncoder/TextDecoder). */
import { utilityError } from '../errors';

export function utf8Bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

export function toBase64(s: string): string {
  return bytesToBase64(utf8Bytes(s));
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(s: string): string {
  return new TextDecoder().decode(base64ToBytes(s));
}

/** The bytes of base64 (also URL-safe base64; whitespace ignored). */
export function base64ToBytes(s: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(s.replace(/[\s]/g, '').replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw utilityError('fromBase64: not valid base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
