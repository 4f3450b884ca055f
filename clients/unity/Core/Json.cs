using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Encore.Campaigns
{
    /// <summary>
    /// The little JSON the four public calls need, without a dependency a Unity project may
    /// already carry in another version. Objects read as Dictionary&lt;string, object&gt;, arrays
    /// as List&lt;object&gt;, numbers as their source text (JsonNumber) so 64-bit values never pass
    /// through a double (spec 2.1; the service sends them as strings anyway).
    /// </summary>
    public static class Json
    {
        public static object Parse(string text)
        {
            var reader = new Reader(text);
            var value = reader.Value();
            reader.End();
            return value;
        }

        public static string Write(object value)
        {
            var sb = new StringBuilder();
            WriteValue(sb, value);
            return sb.ToString();
        }

        static void WriteValue(StringBuilder sb, object value)
        {
            if (value == null) sb.Append("null");
            else if (value is string s) WriteString(sb, s);
            else if (value is bool b) sb.Append(b ? "true" : "false");
            else if (value is int i) sb.Append(i.ToString(CultureInfo.InvariantCulture));
            else if (value is long l) sb.Append(l.ToString(CultureInfo.InvariantCulture));
            else if (value is IDictionary<string, object> map)
            {
                sb.Append('{');
                var first = true;
                foreach (var pair in map)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteString(sb, pair.Key);
                    sb.Append(':');
                    WriteValue(sb, pair.Value);
                }
                sb.Append('}');
            }
            else if (value is System.Collections.IEnumerable items)
            {
                sb.Append('[');
                var first = true;
                foreach (var item in items)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteValue(sb, item);
                }
                sb.Append(']');
            }
            else throw new ArgumentException("cannot write " + value.GetType().Name + " as JSON");
        }

        static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (var c in s)
            {
                if (c == '"') sb.Append("\\\"");
                else if (c == '\\') sb.Append("\\\\");
                else if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4"));
                else sb.Append(c);
            }
            sb.Append('"');
        }

        sealed class Reader
        {
            readonly string text;
            int at;

            public Reader(string text) { this.text = text ?? ""; }

            public void End()
            {
                Space();
                if (at != text.Length) throw Error("trailing characters");
            }

            public object Value()
            {
                Space();
                if (at >= text.Length) throw Error("unexpected end");
                var c = text[at];
                if (c == '{') return Object();
                if (c == '[') return Array();
                if (c == '"') return String();
                if (Take("true")) return true;
                if (Take("false")) return false;
                if (Take("null")) return null;
                return Number();
            }

            Dictionary<string, object> Object()
            {
                var map = new Dictionary<string, object>();
                at++;
                Space();
                if (Peek('}')) { at++; return map; }
                while (true)
                {
                    Space();
                    var key = String();
                    Space();
                    Expect(':');
                    map[key] = Value();
                    Space();
                    if (Peek(',')) { at++; continue; }
                    Expect('}');
                    return map;
                }
            }

            List<object> Array()
            {
                var list = new List<object>();
                at++;
                Space();
                if (Peek(']')) { at++; return list; }
                while (true)
                {
                    list.Add(Value());
                    Space();
                    if (Peek(',')) { at++; continue; }
                    Expect(']');
                    return list;
                }
            }

            string String()
            {
                Expect('"');
                var sb = new StringBuilder();
                while (at < text.Length)
                {
                    var c = text[at++];
                    if (c == '"') return sb.ToString();
                    if (c != '\\') { sb.Append(c); continue; }
                    if (at >= text.Length) break;
                    var e = text[at++];
                    switch (e)
                    {
                        case 'n': sb.Append('\n'); break;
                        case 't': sb.Append('\t'); break;
                        case 'r': sb.Append('\r'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'u':
                            if (at + 4 > text.Length) throw Error("bad escape");
                            sb.Append((char)int.Parse(text.Substring(at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                            at += 4;
                            break;
                        default: sb.Append(e); break;
                    }
                }
                throw Error("unterminated string");
            }

            JsonNumber Number()
            {
                var start = at;
                while (at < text.Length && "+-0123456789.eE".IndexOf(text[at]) >= 0) at++;
                if (start == at) throw Error("unexpected character");
                return new JsonNumber(text.Substring(start, at - start));
            }

            bool Take(string word)
            {
                if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) return false;
                at += word.Length;
                return true;
            }

            bool Peek(char c) { return at < text.Length && text[at] == c; }

            void Expect(char c)
            {
                if (!Peek(c)) throw Error("expected '" + c + "'");
                at++;
            }

            void Space()
            {
                while (at < text.Length && char.IsWhiteSpace(text[at])) at++;
            }

            FormatException Error(string what) { return new FormatException("JSON " + what + " at " + at); }
        }
    }

    /// <summary>A JSON number kept as written.</summary>
    public sealed class JsonNumber
    {
        public readonly string Text;
        public JsonNumber(string text) { Text = text; }
        public int ToInt32() { return int.Parse(Text, NumberStyles.Integer, CultureInfo.InvariantCulture); }
        public override string ToString() { return Text; }
    }
}
